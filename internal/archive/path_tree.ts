// What layer apply remembers about paths until the layer ends, keyed by real path (components
// under the root, as resolved when the entry was written: no symlink among them): parents it had
// to create, directory times to set last, and (for "remove" whiteouts) what the layer wrote.
// A tree, so that forgetting everything at or below a replaced path costs that subtree, not a scan
// of every path remembered; and bounded, so a hostile layer gets a clean error instead of making
// the daemon exhaust its memory.
import { invalidArgument } from '../errdefs/errors';
import type { EntryTimes } from './attributes';

export interface PathNode {
  children?: Map<string, PathNode>;
  /** Created only as the parent of an entry; no entry described it (yet). */
  implied?: boolean;
  /** Written by an entry of this layer (kept in "remove" mode only). */
  written?: boolean;
  /** A directory entry's times, set once nothing more is written into it. */
  times?: EntryTimes;
}

/** Enough for any real layer (each path costs well under 200 bytes); refuses the hostile ones. */
export const MAX_REMEMBERED_PATHS = 1 << 20;

export class PathTree {
  readonly root: PathNode = {};
  private count = 0;

  constructor(private readonly max: number = MAX_REMEMBERED_PATHS) {}

  /** The node at `real`, created with its ancestors when missing. */
  node(real: readonly string[], entryName: string): PathNode {
    let node = this.root;
    for (const part of real) {
      node.children ??= new Map();
      let child = node.children.get(part);
      if (child === undefined) {
        if (this.count >= this.max) {
          throw invalidArgument(`layer entry "${entryName}": the layer makes apply remember more than ${this.max} paths (directories, implied parents, written files); refusing it`);
        }
        child = {};
        node.children.set(part, child);
        this.count++;
      }
      node = child;
    }
    return node;
  }

  find(real: readonly string[]): PathNode | undefined {
    let node: PathNode | undefined = this.root;
    for (const part of real) {
      node = node.children?.get(part);
      if (node === undefined) return undefined;
    }
    return node;
  }

  /** Forgets `real` and everything below it: what was there is gone. */
  forget(real: readonly string[]): void {
    const parent = this.find(real.slice(0, -1));
    const name = real.at(-1);
    const node = name === undefined ? undefined : parent?.children?.get(name);
    if (node === undefined || name === undefined) return;
    parent?.children?.delete(name);
    this.count -= countOf(node);
  }

  /** Paths ("a/b") of the implied nodes, parents before children. */
  implied(): string[] {
    const out: string[] = [];
    const stack: Array<[string, PathNode]> = [['', this.root]];
    while (stack.length > 0) {
      const [path, node] = stack.pop() as [string, PathNode];
      if (node.implied && path !== '') out.push(path);
      const children = [...(node.children ?? [])].reverse();
      for (const [name, child] of children) stack.push([path === '' ? name : `${path}/${name}`, child]);
    }
    return out;
  }
}

/** Nodes in the subtree, without recursion (a tree can be as deep as a path is long). */
function countOf(top: PathNode): number {
  let n = 0;
  const stack = [top];
  while (stack.length > 0) {
    const node = stack.pop() as PathNode;
    n++;
    for (const child of node.children?.values() ?? []) stack.push(child);
  }
  return n;
}

// Resolving a path of an image (or any rootfs) the way the kernel would inside a chroot of it, but
// from the host: every component is lstat'ed and every symlink is re-resolved against the root, so
// an absolute target or a ".." can never leave it (containerd's fs.RootPath, Go's os.OpenRoot).
// Over overlay layers (topmost first) the lookup follows the merged view: the topmost entry wins,
// a 0/0 character device is a whiteout, and a directory merges with the directories of the same
// path below it until an opaque one (or a non-directory) ends the merge.
import { lstatSync, readlinkSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { invalidArgument } from '../errdefs/errors';
import { errnoCode, lgetxattr } from '../sys/fs';

/** Symlinks followed in one resolution before giving up with ELOOP (Go's fs.RootPath uses 255). */
export const MAX_SYMLINKS = 255;

/** What the archive layer sets on a directory that hides everything below it (`.wh..wh..opq`). */
const OVERLAY_OPAQUE_XATTR = 'trusted.overlay.opaque';

/** The entry a path resolves to: never a symlink. */
export interface ResolvedEntry {
  /** Where it is on the host (in the topmost layer that has it). */
  hostPath: string;
  /** Its lstat, taken during resolution. */
  stats: Stats;
}

/** One directory of the view: the host directories that show through at its path, topmost first. */
export type ViewDir = readonly string[];

/** One name of a view directory: a directory (with its own view), a symlink (not followed) or anything else. */
export type Lookup =
  | { kind: 'dir'; dirs: ViewDir; hostPath: string; stats: Stats }
  | { kind: 'symlink'; hostPath: string }
  | { kind: 'other'; hostPath: string; stats: Stats };

function lstatOrAbsent(path: string): Stats | undefined {
  try {
    // No exception for ENOENT, the common answer in upper layers: building one costs more than the lstat.
    return lstatSync(path, { throwIfNoEntry: false });
  } catch (err) {
    const code = errnoCode(err);
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw err;
  }
}

const isWhiteout = (st: Stats): boolean => st.isCharacterDevice() && st.rdev === 0;
const isOpaque = (dir: string): boolean => lgetxattr(dir, OVERLAY_OPAQUE_XATTR)?.toString() === 'y';

/** `name` in `dir`; undefined when absent (or whited out, on an overlay view). */
export function lookup(dir: ViewDir, name: string, overlay: boolean): Lookup | undefined {
  let found: { hostPath: string; stats: Stats } | undefined;
  const dirs: string[] = [];
  for (const layerDir of dir) {
    const hostPath = join(layerDir, name);
    const st = lstatOrAbsent(hostPath);
    if (st === undefined) continue;
    if (found === undefined) {
      if (overlay && isWhiteout(st)) return undefined;
      if (st.isSymbolicLink()) return { kind: 'symlink', hostPath };
      if (!st.isDirectory()) return { kind: 'other', hostPath, stats: st };
      found = { hostPath, stats: st };
    } else if (!st.isDirectory()) {
      break; // a whiteout or a file below a directory: nothing lower shows through
    }
    dirs.push(hostPath);
    if (!overlay || isOpaque(hostPath)) break;
  }
  return found === undefined ? undefined : { kind: 'dir', dirs, ...found };
}

const components = (p: string): string[] => p.split('/').filter((c) => c !== '' && c !== '.');

function resolve(layers: readonly string[], path: string, overlay: boolean): { entry: ResolvedEntry; view?: ViewDir } | undefined {
  const rootStats = layers.length === 0 ? undefined : lstatOrAbsent(layers[0]!);
  if (rootStats === undefined) return undefined;
  // stack[i] is the directory at depth i of the resolved path; stack[0] is the root.
  const stack: ViewDir[] = [layers];
  const tops: ResolvedEntry[] = [{ hostPath: layers[0]!, stats: rootStats }];
  const pending = components(path);
  let followed = 0;
  while (pending.length > 0) {
    const part = pending.shift()!;
    if (part === '..') {
      // Every directory on the stack is real (not a symlink), so ".." is its parent; the root's is itself.
      if (stack.length > 1) {
        stack.pop();
        tops.pop();
      }
      continue;
    }
    const entry = lookup(stack[stack.length - 1]!, part, overlay);
    if (entry === undefined) return undefined;
    if (entry.kind === 'symlink') {
      if (++followed > MAX_SYMLINKS) throw invalidArgument(`${path}: too many levels of symbolic links (ELOOP)`);
      const target = readlinkSync(entry.hostPath);
      if (target.startsWith('/')) {
        stack.length = 1;
        tops.length = 1;
      }
      pending.unshift(...components(target));
      continue;
    }
    if (entry.kind === 'dir') {
      stack.push(entry.dirs);
      tops.push({ hostPath: entry.hostPath, stats: entry.stats });
      continue;
    }
    // A file with more to walk: ENOTDIR, which the caller sees as "not there".
    if (pending.length > 0) return undefined;
    return { entry: { hostPath: entry.hostPath, stats: entry.stats } };
  }
  return { entry: tops[tops.length - 1]!, view: stack[stack.length - 1] };
}

/**
 * The entry `path` names inside the directory `root`, every symlink followed inside `root`;
 * undefined when it does not exist. Throws InvalidArgument after MAX_SYMLINKS symlinks.
 */
export function resolveInRoot(root: string, path: string): ResolvedEntry | undefined {
  return resolve([root], path, false)?.entry;
}

/** As resolveInRoot, over the merged view of overlay layer directories given topmost first. */
export function resolveInLayers(layers: readonly string[], path: string): ResolvedEntry | undefined {
  return resolve(layers, path, true)?.entry;
}

/**
 * The directory `path` names, resolved as resolveInLayers (or resolveInRoot when `overlay` is
 * false) does: the host directories that show through at it, topmost first. Undefined when it is
 * absent; null when it is not a directory.
 */
export function resolveDirView(layers: readonly string[], path: string, overlay: boolean): ViewDir | null | undefined {
  const found = resolve(layers, path, overlay);
  if (found === undefined) return undefined;
  return found.view ?? null;
}

// Pod network namespaces, like containerd's pkg/netns: a namespace pinned by a bind mount on a file
// `<dir>/cni-<uuid>` so it outlives every process in it, removed by unmount + unlink.
import { randomUUID } from 'node:crypto';
import { mkdirSync, readdirSync, statfsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Socket } from 'node:net';
import { connectInNetns, createNetns, removeNetns, type ConnectInNetnsOptions } from '../sys/netns';
import { invalidArgument, wrap } from '../errdefs/errors';
import { silentLogger, type Logger } from '../log/logger';

/** The filesystem magic of nsfs (linux/magic.h NSFS_MAGIC): a live namespace file. */
const NSFS_MAGIC = 0x6e736673;
/** The name prefix of the files we own in a netns dir; others (e.g. `ip netns add`) are left alone. */
export const NETNS_PREFIX = 'cni-';

/**
 * The path a new netns would get. Exposed so a caller can persist the path (its intent) before
 * creating the namespace, and a restart can then finish or undo the creation.
 */
export function netnsPathFor(dir: string, id: string = randomUUID()): string {
  if (!/^[A-Za-z0-9][A-Za-z0-9_.-]*$/.test(id)) throw invalidArgument(`netns id ${JSON.stringify(id)} is not a plain name`);
  return join(dir, `${NETNS_PREFIX}${id}`);
}

/** True when `path` is a mounted namespace file (its mount is nsfs), false when absent or a plain file. */
export function isNetnsMounted(path: string): boolean {
  try {
    return statfsSync(path).type === NSFS_MAGIC;
  } catch {
    return false;
  }
}

export class NetNS {
  private constructor(readonly path: string) {}

  /** Creates a namespace at `<dir>/cni-<id>` (id defaults to a fresh UUID); `dir` is made if missing. */
  static async create(dir: string, id?: string): Promise<NetNS> {
    return NetNS.createAt(netnsPathFor(dir, id));
  }

  /** Creates a namespace at an exact path (from netnsPathFor). AlreadyExists when the file is there. */
  static async createAt(path: string): Promise<NetNS> {
    const dir = dirname(path);
    try {
      mkdirSync(dir, { recursive: true, mode: 0o755 });
      await createNetns(path);
    } catch (err) {
      throw wrap(err, `create network namespace ${path}`);
    }
    return new NetNS(path);
  }

  /** A handle on an existing path (e.g. reloaded from metadata); nothing is checked. */
  static load(path: string): NetNS {
    return new NetNS(path);
  }

  /** Unmounts and deletes the namespace file. Idempotent. */
  remove(): void {
    try {
      removeNetns(this.path);
    } catch (err) {
      throw wrap(err, `remove network namespace ${this.path}`);
    }
  }

  /** True once the namespace is gone (removed, or never mounted): containerd's NetNS.Closed. */
  closed(): boolean {
    return !isNetnsMounted(this.path);
  }

  /** A TCP connection to localhost:<port> inside this namespace (port-forward). */
  connect(port: number, opts?: ConnectInNetnsOptions): Promise<Socket> {
    return connectInNetns(this.path, port, opts);
  }
}

/**
 * Removes every `cni-*` namespace file in `dir` whose path is not in `live` (what no sandbox row
 * owns after a crash). Returns the removed paths; a failure on one is logged and the sweep goes on.
 */
export function sweepOrphanNetns(dir: string, live: ReadonlySet<string>, log: Logger = silentLogger): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw wrap(err, `list netns dir ${dir}`);
  }
  const removed: string[] = [];
  for (const name of names.sort()) {
    if (!name.startsWith(NETNS_PREFIX)) continue;
    const path = join(dir, name);
    if (live.has(path)) continue;
    try {
      removeNetns(path);
      removed.push(path);
      log.info('removed orphan network namespace', { path });
    } catch (err) {
      log.warn('cannot remove orphan network namespace', { path, error: err });
    }
  }
  return removed;
}

// A directory tree's disk usage, walked by the addon on libuv's thread pool (internal/sys/src/du.c).
// One walk at a time: the pool's four threads also carry every fs call and the database's fsync
// (metadata/db.ts durable()), which a few large layers walked at once would hold up for seconds.
import { loadAddon } from './addon';

export interface TreeUsage {
  /** Allocated bytes (st_blocks * 512) of every inode in the tree, a multiply-linked file once. */
  size: number;
  /** Inodes in the tree, the root included. */
  inodes: number;
  /** Directories moved while the walk was below 256 levels: what was left in them is not counted. */
  deeper: boolean;
}

interface DuAddon {
  diskUsage(path: string): Promise<TreeUsage>;
}

/** The walk under way or last queued; each walk starts when the one before it settled. */
let queue: Promise<unknown> = Promise.resolve();

/** The usage of the tree at `path` (never following a symlink); rejects with the errno error of the call that failed. */
export function treeUsage(path: string): Promise<TreeUsage> {
  const walk = queue.then(() => loadAddon<DuAddon>().diskUsage(path));
  queue = walk.catch(() => undefined);
  return walk;
}

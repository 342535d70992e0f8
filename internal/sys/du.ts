// A directory tree's disk usage, walked by the addon on libuv's thread pool (internal/sys/src/du.c).
import { loadAddon } from './addon';

export interface TreeUsage {
  /** Allocated bytes (st_blocks * 512) of every inode in the tree, a multiply-linked file once. */
  size: number;
  /** Inodes in the tree, the root included. */
  inodes: number;
  /** Some directories were too deep to enter (256 levels): their contents are not counted. */
  deeper: boolean;
}

interface DuAddon {
  diskUsage(path: string): Promise<TreeUsage>;
}

/** The usage of the tree at `path` (never following a symlink); rejects with the errno error of the call that failed. */
export function treeUsage(path: string): Promise<TreeUsage> {
  return loadAddon<DuAddon>().diskUsage(path);
}

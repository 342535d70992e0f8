// Removing a directory tree of any depth. Node's rm walks by path, so a tree deeper than PATH_MAX
// (a container can build one in its writable layer or a volume, a hostile layer can bring one)
// failed it with ENAMETOOLONG half-way, and its JavaScript handled every entry on berthd's thread
// (a million files: ~9 s of it). The addon walks by descriptor, one directory open at a time, and
// never follows a symlink out of the tree.
import { closeSync, constants, openSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { removeAt } from '../sys/fsat';

/** Removes `path` and everything under it; nothing there is fine. On libuv's thread pool, in steps. */
export { removeTreeOnPool as removeTree } from '../sys/remove';

// libuv opens every file close-on-exec.
const DIR_FLAGS = constants.O_RDONLY | constants.O_DIRECTORY;

/** Removes `path` and everything under it; nothing there is fine. Holds the thread while it works: for berth's own small trees. */
export function removeTreeSync(path: string): void {
  let parent: number;
  try {
    parent = openSync(dirname(path), DIR_FLAGS);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw err;
  }
  try {
    removeAt(parent, basename(path));
  } finally {
    closeSync(parent);
  }
}

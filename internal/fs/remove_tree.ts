// Removing a directory tree of any depth. Node's rm walks by path, so a tree deeper than PATH_MAX
// (a container can build one in its writable layer or a volume, a hostile layer can bring one)
// fails it with ENAMETOOLONG half-way, leaving the rest on disk. The addon's removeAt walks by
// descriptor, one directory open at a time, and never follows a symlink out of the tree.
import { closeSync, constants, openSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { removeAt } from '../sys/fsat';

// libuv opens every file close-on-exec.
const DIR_FLAGS = constants.O_RDONLY | constants.O_DIRECTORY;

/** Removes `path` and everything under it; nothing there is fine. Holds the thread while it works. */
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

/**
 * Removes `path` and everything under it; nothing there is fine. Node's rm first, one call at a time
 * on libuv's pool, so a large tree does not hold the event loop; what it cannot name by path
 * (ENAMETOOLONG) is then removed by removeTreeSync.
 */
export async function removeTree(path: string): Promise<void> {
  try {
    await rm(path, { recursive: true, force: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENAMETOOLONG') throw err;
    removeTreeSync(path);
  }
}

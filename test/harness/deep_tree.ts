// A directory tree twice as deep as PATH_MAX, built a directory at a time through descriptors, as a
// container can build one (two 19-level trees, one moved under the other). Node's rm walks by path
// and fails on it with ENAMETOOLONG; rm(1) and berth's removeTree do not.
import { closeSync, constants, mkdirSync, openSync } from 'node:fs';
import { createFileAt, mkdirAt, openDirAt } from '../../internal/sys/fsat';

export const DEEP_TREE_LEVELS = 40;
/** Each level's name: 40 x 201 bytes of path. */
export const DEEP_TREE_NAME = 'd'.repeat(200);

/** Builds the tree under `dir` (made if missing), a file `leaf` at its bottom. */
export function buildDeepTree(dir: string): void {
  mkdirSync(dir, { recursive: true });
  let fd = openSync(dir, constants.O_RDONLY | constants.O_DIRECTORY);
  for (let i = 0; i < DEEP_TREE_LEVELS; i++) {
    mkdirAt(fd, DEEP_TREE_NAME, 0o755);
    const next = openDirAt(fd, DEEP_TREE_NAME);
    closeSync(fd);
    fd = next;
  }
  closeSync(createFileAt(fd, 'leaf', 0o644));
  closeSync(fd);
}

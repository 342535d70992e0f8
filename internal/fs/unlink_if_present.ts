// Removes one file, a file already gone being fine. Not rmSync({ force: true }): that checks the
// path twice and, at its first use in a process, loads Node's recursive-removal code (~0.6 ms here,
// paid inside berthd's stop, issue 16) to remove what is never a directory.
import { unlinkSync } from 'node:fs';

export function unlinkIfPresent(path: string): void {
  try {
    unlinkSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
}

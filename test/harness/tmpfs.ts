// Small tmpfs instances for full-disk tests: mounted on a directory the test made, filled up to
// ENOSPC with a filler file the test deletes to free the space again, unmounted in teardown.
import { execFileSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync, statfsSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/** `inodes` bounds its files and directories (nr_inodes; the root directory takes one). */
export function mountTmpfs(path: string, size: string, inodes?: number): void {
  mkdirSync(path, { recursive: true });
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size},mode=0755${inodes === undefined ? '' : `,nr_inodes=${inodes}`}`, 'tmpfs', path]);
}

/** Unmounts (lazily when still busy); quiet when nothing is mounted there. */
export function unmountTmpfs(path: string): void {
  try {
    execFileSync('umount', [path], { stdio: 'ignore' });
  } catch {
    try {
      execFileSync('umount', ['-l', path], { stdio: 'ignore' });
    } catch {
      // not mounted
    }
  }
}

/** Writes `<dir>/<name>` until the filesystem refuses another byte; returns its path. */
export function fillUp(dir: string, name = 'filler'): string {
  const path = join(dir, name);
  const fd = openSync(path, 'a');
  const chunk = Buffer.alloc(64 * 1024, 0x2e);
  try {
    for (;;) writeSync(fd, chunk);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
  } finally {
    closeSync(fd);
  }
  return path;
}

/** Bytes an unprivileged write could still use. */
export function freeBytes(path: string): number {
  const st = statfsSync(path);
  return st.bavail * st.bsize;
}

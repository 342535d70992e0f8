// Unmounting whatever a daemon left mounted under the bench's own temp dirs (rootfs overlays,
// /dev/shm tmpfs, netns bind mounts): read /proc/self/mountinfo, deepest path first.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** mountinfo escapes space, tab, newline and backslash as \ooo. */
function unescapeMountPath(field: string): string {
  return field.replace(/\\([0-7]{3})/g, (_, oct: string) => String.fromCharCode(parseInt(oct, 8)));
}

export function mountPointsUnder(dir: string): string[] {
  const prefix = dir.endsWith('/') ? dir : `${dir}/`;
  return readFileSync('/proc/self/mountinfo', 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => unescapeMountPath(line.split(' ')[4]!))
    .filter((mountPoint) => mountPoint === dir || mountPoint.startsWith(prefix));
}

/** Unmounts every mount point under `dir` (lazily when busy); returns how many it removed. */
export function unmountUnder(dir: string): number {
  let removed = 0;
  // Stacked mounts show the same path more than once: a bounded number of passes.
  for (let pass = 0; pass < 5; pass++) {
    const points = mountPointsUnder(dir).sort((a, b) => b.split('/').length - a.split('/').length || b.length - a.length);
    if (points.length === 0) break;
    for (const point of points) {
      try {
        execFileSync('umount', [point], { stdio: 'ignore' });
        removed++;
      } catch {
        try {
          execFileSync('umount', ['-l', point], { stdio: 'ignore' });
          removed++;
        } catch {
          // already gone with its parent
        }
      }
    }
  }
  return removed;
}

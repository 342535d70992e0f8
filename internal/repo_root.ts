// Where berth's own files are at run time: the first directory above this module with a
// package.json — the repository whether this runs from dist/ (berthd) or from sources (jest). The
// native addon (build/), the .proto files (api/) and the test images (.cache/) are found from it.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

let cached: string | undefined;

export function repoRoot(): string {
  if (cached !== undefined) return cached;
  let dir = __dirname;
  while (!existsSync(join(dir, 'package.json'))) {
    const up = dirname(dir);
    if (up === dir) throw new Error(`berth: cannot find package.json above ${__dirname}`);
    dir = up;
  }
  cached = dir;
  return dir;
}

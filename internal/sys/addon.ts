// Loads berth's native addon (build/Release/berth_sys.node, built by node-gyp at `npm ci`).
// Both dist/internal/sys (compiled) and internal/sys (jest via swc) find it by walking up to the
// directory that holds binding.gyp.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

let cached: unknown;

function repoRoot(): string {
  let dir = __dirname;
  while (!existsSync(join(dir, 'binding.gyp'))) {
    const up = dirname(dir);
    if (up === dir) throw new Error(`berth: cannot find binding.gyp above ${__dirname}`);
    dir = up;
  }
  return dir;
}

/** The raw addon; each wrapper module (fs.ts, netns.ts) casts it to the calls it owns. */
export function loadAddon<T>(): T {
  if (cached === undefined) {
    const path = join(repoRoot(), 'build', 'Release', 'berth_sys.node');
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    cached = require(path);
  }
  return cached as T;
}

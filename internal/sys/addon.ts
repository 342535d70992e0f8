// Loads berth's native addon (build/Release/berth_sys.node, built by node-gyp at `npm ci`).
// Both dist/internal/sys (compiled) and internal/sys (jest via swc) find it under the repo root.
import { join } from 'node:path';
import { repoRoot } from '../repo_root';

let cached: unknown;

/** The raw addon; each wrapper module (fs.ts, netns.ts) casts it to the calls it owns. */
export function loadAddon<T>(): T {
  if (cached === undefined) {
    const path = join(repoRoot(), 'build', 'Release', 'berth_sys.node');
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    cached = require(path);
  }
  return cached as T;
}

// The Node floor process (see node_floor.ts): loads the native addon and the packages named on its
// command line, exactly as berthd loads them and nothing else, says "ready" on stdout and idles
// until it is killed; on SIGTERM it leaves as berthd does once its stop is done (the addon's
// exitNow(0), _exit(2)).
// argv: ADDON_PATH MODULE...
/* eslint-disable @typescript-eslint/no-require-imports */
import './heap_flags_first';

const [addonPath, ...modules] = process.argv.slice(2);
if (addonPath === undefined) {
  process.stderr.write('usage: node_floor_child.js ADDON_PATH MODULE...\n');
  process.exit(2);
}
const addon = require(addonPath) as { exitNow(code: number): never };
for (const name of modules) {
  const loaded = require(name) as unknown;
  // better-sqlite3 maps its native library on the first open, which berthd has done.
  if (name === 'better-sqlite3') new (loaded as new (path: string) => unknown)(':memory:');
}
process.on('SIGTERM', () => addon.exitNow(0));
process.stdout.write('ready\n');
setInterval(() => undefined, 1 << 30);

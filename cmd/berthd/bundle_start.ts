// Runs the berthd bundle (dist/bundle/berthd.js, hack/bundle/bundle.ts) with the V8 code cache made
// for it at build time: V8 then skips parsing and compiling the 1-2 MB bundle and the functions its
// modules run at load, a large part of berthd's start-up (issue 16). Bundled itself as
// dist/bundle/start.js, beside the bundle; it uses Node built-ins only. A cache that is missing,
// made for another bundle, or refused by V8 (another Node, other V8 flags) only costs the compile.
import { readFileSync, writeFileSync } from 'node:fs';
import Module from 'node:module';
import { dirname, join } from 'node:path';
import { Script } from 'node:vm';

export const BUNDLE_FILE = 'berthd.js';
/** The last line of a bundle: this marker and the bundle's build id (a hash of what precedes it). */
export const BUILD_ID_MARKER = '\n// berth-bundle-id ';

/** <bundle>.cache: the build id, a newline, then V8's cached data. */
export const cacheFileOf = (bundle: string): string => `${bundle}.cache`;

function buildIdOf(source: string): string | undefined {
  const at = source.lastIndexOf(BUILD_ID_MARKER);
  if (at < 0) return undefined;
  return source.slice(at + BUILD_ID_MARKER.length).trim() || undefined;
}

/** The cached data for `source` from its cache file; undefined unless made for this very bundle. */
function readCodeCache(bundle: string, source: string): Buffer | undefined {
  const id = buildIdOf(source);
  if (id === undefined) return undefined;
  let cache: Buffer;
  try {
    cache = readFileSync(cacheFileOf(bundle));
  } catch {
    return undefined;
  }
  const header = Buffer.from(`${id}\n`, 'latin1');
  return cache.subarray(0, header.length).equals(header) ? cache.subarray(header.length) : undefined;
}

interface LoadedBundle {
  script: Script;
  /** Runs the bundle as the CommonJS module it was built as (it starts berthd's main()). */
  run(): void;
}

function loadBundle(bundle: string, withCache: boolean): LoadedBundle {
  const source = readFileSync(bundle, 'latin1'); // esbuild writes ASCII only
  const cachedData = withCache ? readCodeCache(bundle, source) : undefined;
  const script = new Script(Module.wrap(source), { filename: bundle, cachedData });
  return {
    script,
    run: () => {
      // The wrapper's arguments, as Node's own loader passes them; require resolves beside the bundle.
      const mod = new Module(bundle);
      mod.filename = bundle;
      const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
      wrapper.call(mod.exports, mod.exports, Module.createRequire(bundle), mod, bundle, dirname(bundle));
    },
  };
}

/** bin/berthd: berthd from the bundle beside this file. */
export function startBerthd(): void {
  loadBundle(join(__dirname, BUNDLE_FILE), true).run();
}

/**
 * Build step, in a process started with berthd's own Node flags (V8 refuses a cache made under
 * other flags): loads every module of the bundle through `berthd --help`, then writes the code
 * cache, which then holds the compiled code of everything that load ran.
 */
export function writeCodeCache(bundle: string): void {
  const source = readFileSync(bundle, 'latin1');
  const id = buildIdOf(source);
  if (id === undefined) throw new Error(`${bundle}: no build id line; not made by hack/bundle/bundle.ts`);
  const loaded = loadBundle(bundle, false);
  process.argv = [process.execPath, bundle, '--help'];
  process.once('exit', () => {
    writeFileSync(cacheFileOf(bundle), Buffer.concat([Buffer.from(`${id}\n`, 'latin1'), loaded.script.createCachedData()]));
  });
  loaded.run();
}

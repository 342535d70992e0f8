// Runs the berthd bundle (dist/bundle/berthd.js, hack/bundle/bundle.ts) with the V8 code cache made
// for it at build time: V8 then skips parsing and compiling the 1-2 MB bundle and the functions its
// modules run at load, a large part of berthd's start-up (issue 16). Bundled itself as
// dist/bundle/start.js, beside the bundle. A cache that is missing, made for another bundle, or
// refused by V8 (another Node, other V8 flags) only costs the compile. The bundle and its caches are
// mapped (berth's addon), not read: reading 2.7 MB into fresh memory was ~1,000 page faults, ~20 ms
// here; so hack/bundle replaces them by rename only, never in place.
//
// The build's cache holds what loading the modules compiles. What a running berthd compiles later
// (recovery, the gRPC server, the handlers of its first calls) V8 compiles again at every start,
// so a berthd that served also writes a warm cache beside the bundle, once, a few seconds after it
// began serving (by then recovery, the server and the kubelet's first calls have run; at exit it
// would lengthen every stop by ~40 ms). The next start of the same build prefers it. An install
// whose bundle directory is read-only (or full) just keeps using the build's cache.
import Module from 'node:module';
import { dirname, join } from 'node:path';
import { Script } from 'node:vm';
import { replaceFileSync } from '../../internal/fs/replace_file';
import { trimMalloc } from '../../internal/sys/malloc';
import { mapFileBuffer, mapFileLatin1 } from '../../internal/sys/map';
import { endStartupPrefault } from '../../internal/sys/prefault';
import { heapSizeFlagsToDefaults } from './heap_flags';
import { onServing } from './serving_hook';

export { heapSizeFlagsToDefaults }; // for a check of the cache under berthd's flags, as berthd runs

export const BUNDLE_FILE = 'berthd.js';
/** The last line of a bundle: this marker and the bundle's build id (a hash of what precedes it). */
export const BUILD_ID_MARKER = '\n// berth-bundle-id ';

/** <bundle>.cache: the build id, a newline, then V8's cached data. */
export const cacheFileOf = (bundle: string): string => `${bundle}.cache`;
/** <bundle>.warm-cache: the same, written by a running berthd. */
export const warmCacheFileOf = (bundle: string): string => `${bundle}.warm-cache`;
/** How long a berthd serves before it writes the warm cache. */
export const WARM_CACHE_AFTER_MS = 5_000;

function buildIdOf(source: string): string | undefined {
  const at = source.lastIndexOf(BUILD_ID_MARKER);
  if (at < 0) return undefined;
  return source.slice(at + BUILD_ID_MARKER.length).trim() || undefined;
}

const cacheHeader = (id: string): Buffer => Buffer.from(`${id}\n`, 'latin1');

/** The cached data in `file` for the build `id`; undefined unless made for this very bundle. */
function readCodeCache(file: string, id: string | undefined): Buffer | undefined {
  if (id === undefined) return undefined;
  let cache: Buffer;
  try {
    cache = mapFileBuffer(file);
  } catch {
    return undefined;
  }
  const header = cacheHeader(id);
  return cache.subarray(0, header.length).equals(header) ? cache.subarray(header.length) : undefined;
}

/**
 * Writes `data` as the cache file `file` of build `id`, whole or not at all (concurrent berthds, a
 * full disk), by rename: a running berthd may have the old one mapped.
 */
function writeCodeCacheFile(file: string, id: string, data: Buffer): void {
  replaceFileSync(file, [cacheHeader(id), data]);
}

interface LoadedBundle {
  script: Script;
  /** The build id on the bundle's last line; undefined for a bundle not made by hack/bundle. */
  id: string | undefined;
  /** Runs the bundle as the CommonJS module it was built as (it starts berthd's main()). */
  run(): void;
}

/** How a bundle starts: hack/bundle wraps it at build time as Node's loader wraps a module (Module.wrap). */
const MODULE_WRAPPER = ((empty: string) => empty.slice(0, empty.indexOf('{') + 1))(Module.wrap(''));

function loadBundle(bundle: string, withCache: boolean): LoadedBundle {
  // The file is the module function itself (esbuild writes ASCII only): compiled as mapped.
  const source = mapFileLatin1(bundle);
  if (!source.startsWith(MODULE_WRAPPER)) throw new Error(`${bundle}: not a bundle made by hack/bundle/bundle.ts (no module wrapper)`);
  const id = buildIdOf(source);
  const compile = (cachedData: Buffer | undefined) => new Script(source, { filename: bundle, cachedData });
  let script: Script | undefined;
  if (withCache) {
    const warm = readCodeCache(warmCacheFileOf(bundle), id);
    if (warm !== undefined) script = compile(warm);
    // Refused (written under other V8 flags): the build's cache is the next best.
    if (script === undefined || script.cachedDataRejected === true) script = compile(readCodeCache(cacheFileOf(bundle), id));
  } else {
    script = compile(undefined);
  }
  return {
    script,
    id,
    run: () => {
      // The wrapper's arguments, as Node's own loader passes them; require resolves beside the bundle.
      const mod = new Module(bundle);
      mod.filename = bundle;
      const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
      wrapper.call(mod.exports, mod.exports, Module.createRequire(bundle), mod, bundle, dirname(bundle));
    },
  };
}

/** Writes the warm cache WARM_CACHE_AFTER_MS from now, unless berthd is gone by then. */
function keepWarm(bundle: string, id: string, script: Script): void {
  // A read-only or full bundle directory keeps the build's cache.
  const write = () => {
    try {
      writeCodeCacheFile(warmCacheFileOf(bundle), id, script.createCachedData());
    } catch {
      // nothing to undo: the temp file is gone
    }
    // What serialising the cache allocated is freed but still held by malloc, which berthd's RSS
    // would carry for the rest of its life (its [heap] some seconds after the write: 4.0-4.6 MiB
    // without the trim, 3.6 with it).
    trimMalloc();
  };
  const timer = setTimeout(write, WARM_CACHE_AFTER_MS);
  timer.unref();
}

/** bin/berthd: berthd from the bundle beside this file. */
export function startBerthd(): void {
  // Before the bundle loads (~0.1 s): SIGUSR1 would open Node's inspector in a root process
  // (cmd/berthd/diagnostics_signal.ts, which main() then installs, reports on it).
  process.on('SIGUSR1', () => undefined);
  heapSizeFlagsToDefaults();
  const bundle = join(__dirname, BUNDLE_FILE);
  const loaded = loadBundle(bundle, true);
  const { id, script } = loaded;
  onServing(() => {
    // bin/berthd's page-fault preload helped start-up; serving, berthd faults memory in as it uses it.
    endStartupPrefault();
    if (id !== undefined) keepWarm(bundle, id, script);
  });
  loaded.run();
}

/**
 * Build step, in a process started with berthd's own Node flags (V8 refuses a cache made under
 * other flags): loads every module of the bundle through `berthd --help`, then writes the code
 * cache, which then holds the compiled code of everything that load ran.
 */
export function writeCodeCache(bundle: string): void {
  heapSizeFlagsToDefaults(); // as startBerthd: the cache is checked against the flags it was made under
  const loaded = loadBundle(bundle, false);
  const { id } = loaded;
  if (id === undefined) throw new Error(`${bundle}: no build id line; not made by hack/bundle/bundle.ts`);
  process.argv = [process.execPath, bundle, '--help'];
  process.once('exit', () => writeCodeCacheFile(cacheFileOf(bundle), id, loaded.script.createCachedData()));
  loaded.run();
}

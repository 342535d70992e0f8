// `make build` step: berthd as one file, dist/bundle/berthd.js, started by dist/bundle/start.js
// (cmd/berthd/bundle_start.ts) with a V8 code cache made here. Resolving, reading and compiling
// ~420 modules one by one was most of berthd's start-up (issue 16); one bundle is one read, and the
// cache spares V8 the compile. Left out of the bundle: the native addons (better-sqlite3's, found
// through its package.json in node_modules, and berth's own in build/Release, found through
// repoRoot()) and the packages berthd only requires on first use, so their code is not read at
// every start (they load from node_modules as before). Every bundled module's __dirname is the
// bundle's directory, so the proto descriptors that internal/api/proto_root.ts reads beside its
// module are written there too, first: the bundle compiles in their message codecs (bundled_codecs.ts).
// Built-ins that only rare paths call load on first use (lazy_builtins.ts).
import { build, type BuildOptions } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import Module from 'node:module';
import { join, resolve } from 'node:path';
import { BUILD_ID_MARKER, BUNDLE_FILE, warmCacheFileOf } from '../../cmd/berthd/bundle_start';
import { CONTAINERD_PROTO_FILES } from '../../internal/api/containerd';
import { APPLY_WORKER_FILE } from '../../internal/archive/apply_thread';
import { CRI_PROTO_ROOTS } from '../../internal/api/cri';
import { writeProtoDescriptor } from '../../internal/api/proto_root';
import { replaceFileSync } from '../../internal/fs/replace_file';
import { repoRoot } from '../../internal/repo_root';
import { bundledCodecs } from './bundled_codecs';
import { lazyBuiltins } from './lazy_builtins';

export const START_FILE = 'start.js';

/**
 * Required at run time instead of bundled: what only a rarely used path requires (grpc-js's
 * channelz/ORCA, the streaming server's WebSocket upgrade, /metrics, CDI spec files: yaml alone was
 * 158 of the bundle's 1,394 KB, read at every start), and `bindings`, which better-sqlite3 asks
 * only when not told where its addon is (internal/metadata/db.ts tells it). better-sqlite3's own
 * JavaScript is bundled: loaded from node_modules, its ~15 files were 13-19 ms of every start.
 */
const EXTERNAL = ['better-sqlite3/package.json', 'bindings', '@grpc/proto-loader', 'ws', 'prom-client', 'yaml'];

/** Built-ins loaded at their first use (lazy_builtins.ts): nothing calls them while berthd starts. */
const LAZY_BUILTINS = ['zlib', 'worker_threads'];

const COMMON: BuildOptions = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  logLevel: 'warning',
};

/** dist/bundle: under the repository, so repoRoot() finds package.json (and build/, api/) above it. */
export function defaultBundleDir(): string {
  return join(repoRoot(), 'dist', 'bundle');
}

/**
 * The bundle's file: the module function itself, as Node's loader would wrap it (Module.wrap), so
 * start.js compiles the file's text as mapped instead of concatenating the wrapper at every start
 * (V8 then copied the 1.3 MB result into one flat string again: ~5 ms of page faults here, issue 16);
 * then the build id line bundle_start.ts checks a code cache against.
 */
function bundleFileText(esbuildOutput: string): string {
  const wrapped = Module.wrap(esbuildOutput); // esbuild writes ASCII only
  const id = createHash('sha256').update(wrapped, 'latin1').digest('hex');
  return `${wrapped}${BUILD_ID_MARKER}${id}\n`;
}

/** Runs `berthd --help` from the bundle under berthd's Node flags and writes <bundle>.cache. */
function writeCodeCache(startFile: string, bundle: string, nodeFlags: readonly string[]): void {
  // The script comes on stdin, not through -e: in eval mode berthd's parseArgs would read argv[1] as a flag.
  const run = spawnSync(process.execPath, [...nodeFlags, '-', startFile, bundle], {
    input: 'require(process.argv[2]).writeCodeCache(process.argv[3]);',
    stdio: ['pipe', 'ignore', 'pipe'],
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`writing the code cache of ${bundle} failed: ${run.stderr || run.error?.message}`);
}

/**
 * Writes <outDir>/berthd.js (and its source map, for `node --enable-source-maps` when reading a stack
 * trace), <outDir>/start.js, <outDir>/berthd.js.cache and <outDir>/descriptors/; returns start.js.
 * `nodeFlags` are the ones berthd will run with (bin/berthd's): V8 accepts a code cache made under
 * the same flags only.
 */
export async function bundleBerthd(outDirArg: string, nodeFlags: readonly string[]): Promise<string> {
  // Absolute: start.js is require()d by path when the code cache is written.
  const outDir = resolve(outDirArg);
  mkdirSync(outDir, { recursive: true });
  const bundle = join(outDir, BUNDLE_FILE);
  const startFile = join(outDir, START_FILE);
  // First: the bundle compiles in the codecs kept beside these descriptors.
  const descriptors = join(outDir, 'descriptors');
  const roots: (readonly [string, readonly string[]])[] = [...CRI_PROTO_ROOTS, ['containerd', CONTAINERD_PROTO_FILES]];
  for (const [name, files] of roots) writeProtoDescriptor(name, files, descriptors);
  const built = await build({
    ...COMMON,
    entryPoints: [join(repoRoot(), 'cmd', 'berthd', 'main.ts')],
    outfile: bundle,
    external: EXTERNAL,
    plugins: [lazyBuiltins(LAZY_BUILTINS), bundledCodecs(descriptors, roots.map(([name]) => name))],
    // Whitespace and syntax only: identifiers keep their names, so stack traces and `.name` stay readable.
    minifyWhitespace: true,
    minifySyntax: true,
    sourcemap: 'linked',
    write: false,
  });
  // Replaced by rename, never rewritten in place: a running berthd has the old bundle mapped.
  for (const out of built.outputFiles) {
    replaceFileSync(out.path, out.path === bundle ? bundleFileText(out.text) : out.contents);
  }
  await build({ ...COMMON, entryPoints: [join(repoRoot(), 'cmd', 'berthd', 'bundle_start.ts')], outfile: startFile });
  // The layer-apply worker's script, beside the bundle where apply_thread.ts looks for it.
  await build({
    ...COMMON,
    entryPoints: [join(repoRoot(), 'internal', 'archive', 'apply_worker.ts')],
    outfile: join(outDir, APPLY_WORKER_FILE),
    external: EXTERNAL,
    minifyWhitespace: true,
    minifySyntax: true,
  });
  writeCodeCache(startFile, bundle, nodeFlags);
  rmSync(warmCacheFileOf(bundle), { force: true }); // a running berthd's, for the bundle this one replaces
  return startFile;
}

// node dist/hack/bundle/bundle.js [OUT_DIR [NODE_FLAG...]]
if (require.main === module) {
  bundleBerthd(process.argv[2] ?? defaultBundleDir(), process.argv.slice(3)).then(
    (file) => process.stdout.write(`wrote ${file}\n`),
    (err: unknown) => {
      process.stderr.write(`bundle: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exit(1);
    },
  );
}

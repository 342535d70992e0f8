// An esbuild plugin for berthd's bundle: Node built-in modules that only rarely used paths call
// (zlib: gzip layers, grpc-js message compression, SPDY headers; worker_threads: the layer-apply
// worker) are loaded at their first use instead of at every start. Each is required at the bundle's
// start by a module's top level, although nothing calls it then; loading them was ~4.5 ms of
// berthd's ~110 ms of loading here (issue 16; zlib alone 3.6 ms). (dns would be one too, but Node's
// net loads it for any listen() given a host, as the streaming server's is.)
// A module importing one gets an object of getters, one per name the built-in exports (listed here
// at build time, by the Node that builds), each requiring the real module on its first read. A
// getter object and not a Proxy: esbuild's interop (__toESM) copies every own name of an imported
// CommonJS module at import time, which a Proxy would answer only by loading the module.
import type { Plugin } from 'esbuild';

const NAMESPACE = 'berth-lazy-builtin';

/** The stub module's source for built-in `name` ("zlib"). */
export function lazyBuiltinSource(name: string): string {
  const names = Object.keys(require(`node:${name}`) as object);
  return [
    '"use strict";',
    'let loaded;',
    `const load = () => (loaded ??= require(${JSON.stringify(`node:${name}`)}));`,
    `for (const name of ${JSON.stringify(names)}) {`,
    '  Object.defineProperty(exports, name, { enumerable: true, get: () => load()[name] });',
    '}',
    '',
  ].join('\n');
}

/** Imports of `names` ("zlib" or "node:zlib") resolve to lazy stubs; the stubs' own require stays external. */
export function lazyBuiltins(names: readonly string[]): Plugin {
  const filter = new RegExp(`^(node:)?(${names.join('|')})$`);
  return {
    name: 'lazy-builtins',
    setup(build) {
      build.onResolve({ filter }, (args) => {
        const name = args.path.replace(/^node:/, '');
        // The stub's own require (its importer is in the stub namespace): the real module, left to Node.
        if (args.namespace === NAMESPACE) return { path: `node:${name}`, external: true };
        return { path: name, namespace: NAMESPACE };
      });
      build.onLoad({ filter: /.*/, namespace: NAMESPACE }, (args) => ({ contents: lazyBuiltinSource(args.path), loader: 'js' }));
    },
  };
}

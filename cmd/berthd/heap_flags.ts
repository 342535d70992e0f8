// bin/berthd starts Node with --max-semi-space-size (the Makefile's BERTHD_NODE_FLAGS), which V8
// reads once, when it sizes the heap. But V8 takes a code cache only under the flags it was made
// with, and Node's own modules come with one made under the default flags: with the flag still
// set, each of the ~85 built-in modules grpc-js loads (http2, tls, net, crypto, streams, ...) was
// compiled from source at every start (~25 ms here, issue 16). Once the heap exists the flag has
// done its work: it goes back to its default before those modules load, and the heap keeps its size.
import { setFlagsFromString } from 'node:v8';

/** V8 flags that size the heap when Node starts, with their defaults (`node --v8-options`). */
const HEAP_SIZE_FLAG_DEFAULTS: Readonly<Record<string, string>> = {
  '--max-semi-space-size': '0',
  '--min-semi-space-size': '0',
};

/** Sets each heap-sizing flag given on Node's command line back to its default; returns their names. */
export function heapSizeFlagsToDefaults(execArgv: readonly string[] = process.execArgv): string[] {
  const reset: string[] = [];
  for (const arg of execArgv) {
    const name = arg.split('=', 1)[0]!.replace(/_/g, '-'); // V8 takes --max_semi_space_size too
    const value = HEAP_SIZE_FLAG_DEFAULTS[name];
    if (value === undefined || reset.includes(name)) continue;
    setFlagsFromString(`${name}=${value}`);
    reset.push(name);
  }
  return reset;
}

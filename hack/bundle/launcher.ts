// bin/berthd, as `make build` writes it: Node with berthd's flags, running the bundle's loader.
// NODE_EXTRA_CA_CERTS is handed over under another name (internal/images/pull/extra_ca.ts): Node
// would read that file before any JavaScript runs, at every start, for a pull that may never come.
// GNU env's -S expands ${NAME} (to nothing when unset) before -u drops the variable.
// With a preload (internal/sys/preload, by absolute path: the #! line cannot name a file
// relative to itself), Node starts with it first in LD_PRELOAD; the library takes itself out again.
import { chmodSync, writeFileSync } from 'node:fs';
import { DEFERRED_EXTRA_CA_ENV } from '../../internal/images/pull/extra_ca';

/** Linux reads at most 255 bytes of a #! line (BINPRM_BUF_SIZE less its newline). */
export const SHEBANG_MAX = 255;
/** What a path may hold to go into the #! line single-quoted (env -S takes it literally). */
const QUOTABLE_PATH = /^\/[A-Za-z0-9._+\-/@]+$/;

function shebang(nodeFlags: readonly string[], preload: string | undefined): string {
  const assignments = [`${DEFERRED_EXTRA_CA_ENV}=\${NODE_EXTRA_CA_CERTS}`];
  if (preload !== undefined) assignments.push(`LD_PRELOAD='${preload}':\${LD_PRELOAD}`);
  return `#!/usr/bin/env -S -u NODE_EXTRA_CA_CERTS ${assignments.join(' ')} node ${nodeFlags.join(' ')}`;
}

/**
 * The launcher's text. A preload whose path cannot be quoted, or that would make the #! line too
 * long for the kernel, is left out (`preloaded` false): berthd starts as before, only slower.
 */
export function berthdLauncher(nodeFlags: readonly string[], preload?: string): { text: string; preloaded: boolean } {
  let line = shebang(nodeFlags, undefined);
  let preloaded = false;
  if (preload !== undefined && QUOTABLE_PATH.test(preload)) {
    const withPreload = shebang(nodeFlags, preload);
    if (Buffer.byteLength(withPreload) <= SHEBANG_MAX) [line, preloaded] = [withPreload, true];
  }
  return { text: `${line}\nrequire("../dist/bundle/start.js").startBerthd();\n`, preloaded };
}

// node dist/hack/bundle/launcher.js FILE [--preload SO] [NODE_FLAG...]
if (require.main === module) {
  const [file, ...rest] = process.argv.slice(2);
  if (file === undefined) {
    process.stderr.write('usage: launcher.js FILE [--preload SO] [NODE_FLAG...]\n');
    process.exit(2);
  }
  const [preload, flags] = rest[0] === '--preload' ? [rest[1], rest.slice(2)] : [undefined, rest];
  const { text, preloaded } = berthdLauncher(flags, preload);
  if (preload !== undefined && !preloaded) {
    process.stderr.write(`launcher: ${file} starts Node without ${preload}: its path does not fit in a #! line\n`);
  }
  writeFileSync(file, text);
  chmodSync(file, 0o755);
}

// bin/berthd, as `make build` writes it: Node with berthd's flags, running the bundle's loader.
// NODE_EXTRA_CA_CERTS is handed over under another name (internal/images/pull/extra_ca.ts): Node
// would read that file before any JavaScript runs, at every start, for a pull that may never come.
// GNU env's -S expands ${NAME} (to nothing when unset) before -u drops the variable.
import { chmodSync, writeFileSync } from 'node:fs';
import { DEFERRED_EXTRA_CA_ENV } from '../../internal/images/pull/extra_ca';

export function berthdLauncher(nodeFlags: readonly string[]): string {
  const env = `-u NODE_EXTRA_CA_CERTS ${DEFERRED_EXTRA_CA_ENV}=\${NODE_EXTRA_CA_CERTS}`;
  return `#!/usr/bin/env -S ${env} node ${nodeFlags.join(' ')}\nrequire("../dist/bundle/start.js").startBerthd();\n`;
}

// node dist/hack/bundle/launcher.js FILE [NODE_FLAG...]
if (require.main === module) {
  const [file, ...flags] = process.argv.slice(2);
  if (file === undefined) {
    process.stderr.write('usage: launcher.js FILE [NODE_FLAG...]\n');
    process.exit(2);
  }
  writeFileSync(file, berthdLauncher(flags));
  chmodSync(file, 0o755);
}

// The operator's extra CAs (NODE_EXTRA_CA_CERTS) for registry TLS, read at the first https request.
// Node reads that file at every process start, before any JavaScript runs: ~45 ms for a system-sized
// bundle on the machines measured (issue 16), paid by every berthd restart for the rare pull from a
// registry only it vouches for. bin/berthd therefore starts Node without it, handing the path over
// as DEFERRED_EXTRA_CA_ENV; berthd puts it back into its environment at start (its children see
// what they always saw) and the registry transport adds the file's certificates here instead.
import { readFileSync } from 'node:fs';

/** Where bin/berthd hands NODE_EXTRA_CA_CERTS over, so Node does not load it at start-up. */
export const DEFERRED_EXTRA_CA_ENV = 'BERTH_NODE_EXTRA_CA_CERTS';

/** Puts a deferred NODE_EXTRA_CA_CERTS back into the environment (berthd's first step). */
export function restoreDeferredExtraCaCerts(env: NodeJS.ProcessEnv = process.env): void {
  const deferred = env[DEFERRED_EXTRA_CA_ENV];
  delete env[DEFERRED_EXTRA_CA_ENV];
  if (deferred) env.NODE_EXTRA_CA_CERTS = deferred;
}

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

export interface ExtraCas {
  file: string;
  /** PEM certificates; empty when the file could not be read (as Node, berthd then goes on without). */
  certs: string[];
}

const read = new Map<string, ExtraCas>();

/**
 * The certificates of NODE_EXTRA_CA_CERTS, read once per path; undefined when it is not set. A file
 * that cannot be read is warned of (once, in Node's own words) and stands for no certificates.
 */
export function extraCaCerts(env: NodeJS.ProcessEnv = process.env): ExtraCas | undefined {
  const file = env.NODE_EXTRA_CA_CERTS;
  if (!file) return undefined;
  let found = read.get(file);
  if (found === undefined) {
    try {
      found = { file, certs: readFileSync(file, 'utf8').match(PEM_CERTIFICATE) ?? [] };
    } catch (err) {
      process.emitWarning(`Ignoring extra certs from \`${file}\`, load failed: ${(err as Error).message}`);
      found = { file, certs: [] };
    }
    read.set(file, found);
  }
  return found;
}

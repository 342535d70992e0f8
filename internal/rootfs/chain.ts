// Chain IDs (OCI image spec): the identity of a layer together with everything below it.
//   chainID(1) = diffID(1);  chainID(n) = sha256(chainID(n-1) + " " + diffID(n))
import { createHash } from 'node:crypto';
import { invalidArgument } from '../errdefs/errors';

const DIGEST = /^sha256:[0-9a-f]{64}$/;

export function chainIDs(diffIDs: readonly string[]): string[] {
  const out: string[] = [];
  for (const diffID of diffIDs) {
    if (!DIGEST.test(diffID)) throw invalidArgument(`layer diffID ${JSON.stringify(diffID)} is not a sha256 digest`);
    const prev = out.at(-1);
    out.push(prev === undefined ? diffID : `sha256:${createHash('sha256').update(`${prev} ${diffID}`).digest('hex')}`);
  }
  return out;
}

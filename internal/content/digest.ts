// Digest strings: only sha256 is accepted, the algorithm every image we handle uses.
import { createHash } from 'node:crypto';
import { invalidArgument } from '../errdefs/errors';

const SHA256_RE = /^sha256:([a-f0-9]{64})$/;

export function isDigest(value: string): boolean {
  return SHA256_RE.test(value);
}

/** The hex part of "sha256:<hex>"; InvalidArgument naming the string otherwise. */
export function digestHex(digest: string): string {
  const m = SHA256_RE.exec(digest);
  if (!m) throw invalidArgument(`invalid digest ${JSON.stringify(digest)}: want sha256:<64 lowercase hex>`);
  return m[1];
}

export function sha256Digest(data: Buffer | Uint8Array | string): string {
  return `sha256:${createHash('sha256').update(data).digest('hex')}`;
}

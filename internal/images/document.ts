// The JSON documents of an image (index, manifest, config) are read whole into memory to be
// parsed, so each is size-checked first: against what its descriptor claims, then against the
// blob's real size in the content store. A hostile image cannot make berthd allocate gigabytes.
import type { ContentStore, Descriptor } from '../content/types';
import { invalidArgument } from '../errdefs/errors';

/**
 * Largest index or manifest accepted: distribution's and containers/image's 4 MiB (containerd's
 * resolver refuses about as much, MaxManifestSize).
 */
export const MAX_MANIFEST_BYTES = 4 << 20;

/** Largest image config accepted: containers/image's MaxConfigBodySize. */
export const MAX_CONFIG_BYTES = 4 << 20;

/** Throws InvalidArgument when `size` is past `limit`; `what` names the document. */
export function checkDocumentSize(what: string, size: number, limit: number): void {
  if (size > limit) throw invalidArgument(`${what} is ${size} bytes, larger than the ${limit}-byte limit`);
}

/**
 * The bytes of the document `desc` names, refused before reading when it (or the stored blob) is
 * bigger than `limit`. Errors of the store (NotFound, ...) pass through.
 */
export async function readDocument(content: ContentStore, desc: Descriptor, limit: number, what: string): Promise<Buffer> {
  checkDocumentSize(what, desc.size, limit);
  checkDocumentSize(what, (await content.info(desc.digest)).size, limit);
  const data = await content.readBytes(desc.digest);
  checkDocumentSize(what, data.length, limit);
  return data;
}

import type { Readable } from 'node:stream';
import type { Descriptor } from '../content/types';

/** One image layer to unpack: its uncompressed digest and a way to read its blob. */
export interface Layer {
  /** "sha256:..." of the uncompressed tar (from the image config's rootfs.diff_ids). */
  diffID: string;
  /** The blob as the manifest lists it (compressed or not). */
  descriptor: Descriptor;
  /** Opens the blob from the start; called once per extraction attempt. */
  open(): Promise<Readable>;
}

// The content store's contract: blobs addressed by digest, verified on the way in. Images (pull,
// import) and rootfs (unpack) depend on this interface, not on the filesystem layout behind it.
import type { Readable } from 'node:stream';

/** An OCI content descriptor. */
export interface Descriptor {
  mediaType: string;
  digest: string; // "sha256:<64 hex>"
  size: number;
  annotations?: Record<string, string>;
  urls?: string[];
  platform?: { architecture: string; os: string; variant?: string; 'os.version'?: string };
}

export interface ContentInfo {
  digest: string;
  size: number;
  createdAt: Date;
}

export interface ContentStore {
  /** NotFound when absent. */
  info(digest: string): Promise<ContentInfo>;
  has(digest: string): Promise<boolean>;
  /** Path of the committed blob on disk (read-only use), NotFound when absent. */
  blobPath(digest: string): string;
  readStream(digest: string): Readable;
  readBytes(digest: string): Promise<Buffer>;
  /**
   * Streams `source` into a temp file, checking size and digest as it goes, and renames it into
   * place. A mismatch deletes the temp file and throws (InvalidArgument / FailedPrecondition)
   * naming expected and actual digest. Ingesting a digest that is already present is a no-op
   * that drains nothing more than needed; concurrent ingests of one digest are safe.
   */
  ingest(expected: { digest: string; size?: number }, source: AsyncIterable<Buffer | Uint8Array>): Promise<ContentInfo>;
  /** Convenience for small blobs (manifests, configs). */
  writeBytes(expected: { digest: string; size?: number }, data: Buffer): Promise<ContentInfo>;
  delete(digest: string): Promise<void>;
  walk(): AsyncIterable<ContentInfo>;
}

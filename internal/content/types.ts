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

/**
 * A lease keeps blobs alive while an operation (pull, import) that will reference them is under
 * way: garbage collection skips every digest held by an open lease, so a blob fetched by one pull
 * is not swept before that pull records its image.
 */
export interface ContentLease {
  /** Marks a digest as in use by this operation (whether it was present before or not). */
  add(digest: string): void;
  /** Digests this lease created (ingested while held), for rollback. */
  readonly created: ReadonlySet<string>;
  /** Every digest this lease holds, created by it or not. */
  readonly held: ReadonlySet<string>;
  release(): void;
}

/** The content store as the images layer drives it: the contract plus leases, GC and ingest by computed digest. */
export interface ManagedContentStore extends ContentStore {
  /** As ContentStore.ingest; with a lease, the digest is held and, when newly written, recorded as created. */
  ingest(
    expected: { digest: string; size?: number },
    source: AsyncIterable<Buffer | Uint8Array>,
    lease?: ContentLease,
  ): Promise<ContentInfo>;
  writeBytes(expected: { digest: string; size?: number }, data: Buffer, lease?: ContentLease): Promise<ContentInfo>;
  /**
   * Streams `source` into the store under the digest computed while writing, for archives whose
   * paths do not name the digest (docker save's `<id>/layer.tar`).
   */
  ingestComputed(source: AsyncIterable<Buffer | Uint8Array>, lease?: ContentLease): Promise<ContentInfo>;
  /** Opens a lease; ingests given this lease record the digests they create. */
  lease(): ContentLease;
  /**
   * Deletes blobs not in `referenced` and not held by any lease (among `candidates` when given).
   * Pass a function to compute `referenced` after GC starts tracking lease activity, so a pull that
   * records its image meanwhile cannot lose its blobs. Returns the digests removed.
   */
  gc(
    referenced: ReadonlySet<string> | (() => Promise<ReadonlySet<string>>),
    candidates?: Iterable<string>,
  ): Promise<string[]>;
}

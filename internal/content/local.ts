// The local content store: committed blobs at <root>/content/blobs/sha256/<hex>, in-progress
// writes under <root>/content/ingest/. A blob only appears under blobs/ after its size and
// digest were checked and its bytes fsynced, by an atomic rename, so a reader (or a crash) never
// sees a partial blob.
import { createReadStream, existsSync, mkdirSync } from 'node:fs';
import { readdir, readFile, rm, stat, unlink } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { join } from 'node:path';
import { digestHex, isDigest } from './digest';
import { LeaseSet, type Lease } from './lease';
import { writeVerified, type IngestCheck } from './ingest';
import type { ContentInfo, ContentLease, ManagedContentStore } from './types';
import { failedPrecondition, invalidArgument, notFound, wrap } from '../errdefs/errors';

type Source = AsyncIterable<Buffer | Uint8Array>;

const READ_CHUNK = 1 << 20;

export class LocalContentStore implements ManagedContentStore {
  readonly blobsDir: string;
  readonly ingestDir: string;
  private readonly inflight = new Map<string, Promise<ContentInfo>>();
  private readonly leases = new LeaseSet();

  constructor(readonly root: string) {
    this.blobsDir = join(root, 'content', 'blobs', 'sha256');
    this.ingestDir = join(root, 'content', 'ingest');
    mkdirSync(this.blobsDir, { recursive: true, mode: 0o700 });
    mkdirSync(this.ingestDir, { recursive: true, mode: 0o700 });
  }

  blobPath(digest: string): string {
    const path = join(this.blobsDir, digestHex(digest));
    if (!existsSync(path)) throw notFound(`content ${digest} not found`);
    return path;
  }

  async info(digest: string): Promise<ContentInfo> {
    const found = await this.tryInfo(digest);
    if (!found) throw notFound(`content ${digest} not found`);
    return found;
  }

  async has(digest: string): Promise<boolean> {
    return (await this.tryInfo(digest)) !== undefined;
  }

  readStream(digest: string): Readable {
    // Large reads: an unpack handles each chunk with a few synchronous calls, fewer is cheaper.
    return createReadStream(this.blobPath(digest), { highWaterMark: READ_CHUNK });
  }

  async readBytes(digest: string): Promise<Buffer> {
    try {
      return await readFile(join(this.blobsDir, digestHex(digest)));
    } catch (err) {
      if (isENOENT(err)) throw notFound(`content ${digest} not found`);
      throw wrap(err, `read content ${digest}`);
    }
  }

  async ingest(expected: { digest: string; size?: number }, source: Source, lease?: ContentLease): Promise<ContentInfo> {
    const hex = digestHex(expected.digest);
    if (expected.size !== undefined && !(Number.isSafeInteger(expected.size) && expected.size >= 0)) {
      throw invalidArgument(`content ${expected.digest}: invalid size ${expected.size}`);
    }
    return this.ingestKnown({ digest: expected.digest, size: expected.size }, hex, source, asLease(lease));
  }

  writeBytes(expected: { digest: string; size?: number }, data: Buffer, lease?: ContentLease): Promise<ContentInfo> {
    return this.ingest(expected, once(data), lease);
  }

  async ingestComputed(source: Source, lease?: ContentLease): Promise<ContentInfo> {
    const written = await writeVerified(this.ingestDir, 'computed', source, undefined, (actual) =>
      join(this.blobsDir, digestHex(actual)),
    );
    this.leases.noteCommitted(written.info.digest);
    const held = asLease(lease);
    held?.add(written.info.digest);
    if (written.created) held?.markCreated(written.info.digest);
    return written.info;
  }

  async delete(digest: string): Promise<void> {
    try {
      await unlink(join(this.blobsDir, digestHex(digest)));
    } catch (err) {
      if (isENOENT(err)) throw notFound(`content ${digest} not found`);
      throw wrap(err, `delete content ${digest}`);
    }
  }

  async *walk(): AsyncIterable<ContentInfo> {
    for (const name of (await readdir(this.blobsDir)).sort()) {
      const found = await this.tryInfo(`sha256:${name}`).catch(() => undefined);
      if (found) yield found;
    }
  }

  /** Removes temp files left by writes that a crash interrupted. Call at start, before any ingest. */
  async sweepIngests(): Promise<number> {
    const names = await readdir(this.ingestDir);
    await Promise.all(names.map((name) => rm(join(this.ingestDir, name), { recursive: true, force: true })));
    return names.length;
  }

  lease(): ContentLease {
    return this.leases.open();
  }

  async gc(
    referenced: ReadonlySet<string> | (() => Promise<ReadonlySet<string>>),
    candidates?: Iterable<string>,
  ): Promise<string[]> {
    // Nothing to collect (a pull that failed before it stored anything): the references, a walk
    // of every image's index and manifests, are not worked out at all.
    const named = candidates ? [...candidates] : undefined;
    if (named?.length === 0) return [];
    const tracking = this.leases.beginTracking();
    try {
      const keep = typeof referenced === 'function' ? await referenced() : referenced;
      const pool = named ?? (await this.listDigests());
      const removed: string[] = [];
      for (const digest of pool) {
        if (keep.has(digest) || tracking.protects(digest) || this.inflight.has(digest)) continue;
        try {
          await unlink(join(this.blobsDir, digestHex(digest)));
          removed.push(digest);
        } catch (err) {
          if (!isENOENT(err)) throw wrap(err, `gc content ${digest}`);
        }
      }
      return removed;
    } finally {
      tracking.end();
    }
  }

  private async ingestKnown(
    expected: IngestCheck,
    hex: string,
    source: Source,
    lease: Lease | undefined,
  ): Promise<ContentInfo> {
    // Hold first: from here on GC will not remove this digest for the caller.
    lease?.add(expected.digest);
    for (;;) {
      const existing = await this.tryInfo(expected.digest);
      if (existing) {
        await closeSource(source);
        if (expected.size !== undefined && existing.size !== expected.size) {
          throw failedPrecondition(
            `content ${expected.digest}: stored blob has size ${existing.size}, descriptor says ${expected.size}`,
          );
        }
        return existing;
      }
      const running = this.inflight.get(expected.digest);
      if (!running) break;
      // Another ingest of the same digest is under way in this process: reuse its result; if it
      // failed, loop and write from our own source.
      const reused = await running.then(
        (info) => info,
        () => undefined,
      );
      if (reused) {
        await closeSource(source);
        return reused;
      }
    }
    const write = writeVerified(this.ingestDir, hex, source, expected, () => join(this.blobsDir, hex)).then(
      (written) => {
        this.leases.noteCommitted(written.info.digest);
        if (written.created) lease?.markCreated(written.info.digest);
        return written.info;
      },
    );
    this.inflight.set(expected.digest, write);
    try {
      return await write;
    } finally {
      if (this.inflight.get(expected.digest) === write) this.inflight.delete(expected.digest);
    }
  }

  private async tryInfo(digest: string): Promise<ContentInfo | undefined> {
    try {
      const st = await stat(join(this.blobsDir, digestHex(digest)));
      return { digest, size: st.size, createdAt: st.mtime };
    } catch (err) {
      if (isENOENT(err)) return undefined;
      throw wrap(err, `stat content ${digest}`);
    }
  }

  private async listDigests(): Promise<string[]> {
    return (await readdir(this.blobsDir)).map((name) => `sha256:${name}`).filter(isDigest);
  }
}

function asLease(lease: ContentLease | undefined): Lease | undefined {
  if (lease === undefined) return undefined;
  if (!('markCreated' in lease)) throw invalidArgument('lease was not opened by this content store');
  return lease as Lease;
}

async function* once(data: Buffer): AsyncGenerator<Buffer> {
  yield data;
}

/** Ends a source we will not read (an HTTP body, a file stream) so it does not stay open. */
async function closeSource(source: Source): Promise<void> {
  const it = source[Symbol.asyncIterator]();
  await it.return?.().catch(() => undefined);
}

export function isENOENT(err: unknown): boolean {
  return (err as NodeJS.ErrnoException | undefined)?.code === 'ENOENT';
}

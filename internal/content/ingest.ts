// One verified write: stream into a temp file under ingest/, hashing and counting as bytes
// arrive, fsync, then rename into place. Any failure (a full disk: ResourceExhausted) deletes the
// temp file, so nothing partial is left under ingest/ or blobs/.
import { createHash, randomBytes } from 'node:crypto';
import { open, rename, rm, chmod, access } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { ContentInfo } from './types';
import { BerthError, failedPrecondition, resourceExhausted, wrap } from '../errdefs/errors';

// The disk (or the quota) is full: the caller's fault no more than ours; retried once space is freed.
const NO_SPACE = new Set(['ENOSPC', 'EDQUOT']);

export interface IngestCheck {
  digest: string;
  size?: number;
}

export interface Written {
  info: ContentInfo;
  /** False when the blob was already in place (another writer got there first). */
  created: boolean;
}

/**
 * Writes `source` and commits it at `finalPath(actualDigest)`. With `expected`, a size or digest
 * mismatch fails (FailedPrecondition) naming both digests, and nothing is committed.
 */
export async function writeVerified(
  ingestDir: string,
  label: string,
  source: AsyncIterable<Buffer | Uint8Array>,
  expected: IngestCheck | undefined,
  finalPath: (actualDigest: string) => string,
): Promise<Written> {
  const what = expected ? `content ${expected.digest}` : 'content';
  const tmp = join(ingestDir, `${label}.${process.pid}.${randomBytes(6).toString('hex')}`);
  const hash = createHash('sha256');
  let size = 0;
  try {
    const fh = await open(tmp, 'wx', 0o600);
    try {
      for await (const chunk of source) {
        const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
        size += buf.length;
        if (expected?.size !== undefined && size > expected.size) {
          throw failedPrecondition(`${what}: size mismatch: expected ${expected.size} bytes, got more`);
        }
        hash.update(buf);
        let off = 0;
        while (off < buf.length) off += (await fh.write(buf, off, buf.length - off)).bytesWritten;
      }
      await fh.sync();
    } finally {
      await fh.close();
    }
    const actual = `sha256:${hash.digest('hex')}`;
    if (expected?.size !== undefined && size !== expected.size) {
      throw failedPrecondition(`${what}: size mismatch: expected ${expected.size} bytes, got ${size} (digest ${actual})`);
    }
    if (expected && actual !== expected.digest) {
      throw failedPrecondition(`${what}: digest mismatch: expected ${expected.digest}, actual ${actual}`);
    }
    const dest = finalPath(actual);
    const existed = await access(dest).then(
      () => true,
      () => false,
    );
    if (existed) {
      await rm(tmp, { force: true });
    } else {
      // Committed blobs are immutable; the rename over a concurrent writer's identical file is harmless.
      await chmod(tmp, 0o444);
      await rename(tmp, dest);
      await fsyncDir(dirname(dest));
    }
    return { info: { digest: actual, size, createdAt: new Date() }, created: !existed };
  } catch (err) {
    await rm(tmp, { force: true });
    if (err instanceof BerthError) throw err;
    if (NO_SPACE.has((err as NodeJS.ErrnoException).code ?? '')) {
      throw resourceExhausted(`ingest ${what}: ${(err as Error).message}`, err);
    }
    throw wrap(err, `ingest ${what}`);
  }
}

async function fsyncDir(dir: string): Promise<void> {
  const fh = await open(dir, 'r');
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}

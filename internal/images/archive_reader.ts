// Reads an image archive (OCI layout or `docker save`, optionally gzipped) in one pass: blobs go
// straight into the content store (verified by digest while streamed when their path names it),
// the small JSON index files are kept in memory.
import { constants, createReadStream } from 'node:fs';
import { open, statfs, type FileHandle } from 'node:fs/promises';
import { posix } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import type { ContentInfo, ContentLease, ManagedContentStore } from '../content/types';
import { invalidArgument, isNotFound, notFound, wrap } from '../errdefs/errors';

const METADATA_FILES = new Set(['index.json', 'oci-layout', 'manifest.json', 'repositories']);
const METADATA_MAX = 16 << 20;
const BLOB_PATH_RE = /^blobs\/sha256\/([a-f0-9]{64})$/;
const LEGACY_CONFIG_RE = /^([a-f0-9]{64})\.json$/;

export interface ArchiveContents {
  /** index.json, oci-layout, manifest.json, repositories, when present. */
  metadata: Map<string, Buffer>;
  /** Archive path -> the blob it was stored as. */
  blobs: Map<string, ContentInfo>;
  /** Symlink path -> target path (docker save links identical layers). */
  links: Map<string, string>;
}

/** Normalised path inside the archive, or undefined for entries we must not trust ("..", absolute). */
function cleanPath(name: string): string | undefined {
  const p = posix.normalize(name.replace(/^\.\//, '')).replace(/\/$/, '');
  if (p === '.' || p.startsWith('/') || p === '..' || p.startsWith('../')) return undefined;
  return p;
}

/** Whether the open file starts with the gzip magic bytes (archives and layers both may be gzipped). */
async function gzipMagicAt(fh: FileHandle): Promise<boolean> {
  const head = Buffer.alloc(2);
  const { bytesRead } = await fh.read(head, 0, 2, 0);
  return bytesRead === 2 && head[0] === 0x1f && head[1] === 0x8b;
}

/** Whether the file at `path` starts with the gzip magic bytes. */
export async function startsWithGzipMagic(path: string): Promise<boolean> {
  const fh = await open(path, 'r');
  try {
    return await gzipMagicAt(fh);
  } finally {
    await fh.close();
  }
}

/** Filesystems whose "regular files" are the kernel's and may never end or block a read (/proc/kmsg). */
const PSEUDO_FS = new Set([0x9fa0 /* proc */, 0x62656572 /* sysfs */, 0x64626720 /* debugfs */, 0x74726163 /* tracefs */]);

/**
 * Opens the archive once, and checks what was opened: a path checked first and opened after could
 * be swapped for a FIFO in between, whose open would hold a thread of libuv's pool (and with four
 * such, every fs call berthd makes). O_NONBLOCK: opening a FIFO does not wait for a writer.
 */
async function openArchive(archivePath: string): Promise<FileHandle> {
  let fh: FileHandle;
  try {
    fh = await open(archivePath, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw notFound(`image archive ${archivePath} not found`);
    throw wrap(err, `open image archive ${archivePath}`);
  }
  try {
    if (!(await fh.stat()).isFile()) throw invalidArgument(`image archive ${archivePath} is not a regular file`);
    if (PSEUDO_FS.has((await statfs(`/proc/self/fd/${fh.fd}`)).type)) {
      throw invalidArgument(`image archive ${archivePath} is a kernel file, not an archive`);
    }
    return fh;
  } catch (err) {
    await fh.close();
    throw err;
  }
}

export async function readArchive(
  archivePath: string,
  content: ManagedContentStore,
  lease: ContentLease,
): Promise<ArchiveContents> {
  const out: ArchiveContents = { metadata: new Map(), blobs: new Map(), links: new Map() };
  const fh = await openArchive(archivePath);
  let gzip: boolean;
  try {
    gzip = await gzipMagicAt(fh);
  } catch (err) {
    await fh.close();
    throw wrap(err, `read image archive ${archivePath}`);
  }
  // Loaded on first import, not at berthd start: most daemons never import an archive.
  const { extract } = await import('tar-stream');
  const tar = extract();
  // The stream closes the handle when it ends, whichever way.
  const source = createReadStream('', { fd: fh, start: 0 });
  const feed = gzip ? pipeline(source, createGunzip(), tar) : pipeline(source, tar);
  // Consume entries while the pipeline feeds them; a failure on either side ends both.
  const consume = (async () => {
    for await (const entry of tar) {
      const path = cleanPath(entry.header.name);
      const type = entry.header.type;
      if (path === undefined || (type !== 'file' && type !== 'contiguous-file')) {
        if (path !== undefined && (type === 'symlink' || type === 'link')) {
          const target = type === 'symlink' ? posix.join(posix.dirname(path), entry.header.linkname) : entry.header.linkname;
          const clean = cleanPath(target);
          if (clean !== undefined) out.links.set(path, clean);
        }
        entry.resume();
        continue;
      }
      const blobMatch = BLOB_PATH_RE.exec(path) ?? LEGACY_CONFIG_RE.exec(path);
      if (METADATA_FILES.has(path)) {
        if (entry.header.size > METADATA_MAX) throw invalidArgument(`image archive ${archivePath}: ${path} is too large`);
        const parts: Buffer[] = [];
        for await (const chunk of entry) parts.push(chunk as Buffer);
        out.metadata.set(path, Buffer.concat(parts));
      } else if (blobMatch) {
        const digest = `sha256:${blobMatch[1]}`;
        const body = new EntryBody(entry);
        out.blobs.set(path, await content.ingest({ digest, size: entry.header.size }, body.chunks(), lease));
        await body.drain();
      } else if (path.endsWith('.tar') || path.endsWith('.tar.gz')) {
        const body = new EntryBody(entry);
        out.blobs.set(path, await content.ingestComputed(body.chunks(), lease));
        await body.drain();
      } else {
        entry.resume();
      }
    }
  })();
  // The consumer's error says what was wrong; the feed then only reports the stream it cut.
  const results = await Promise.allSettled([consume, feed]);
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) {
    if (isNotFound(failed.reason)) throw failed.reason;
    throw wrap(failed.reason, `read image archive ${archivePath}`);
  }
  return out;
}

/**
 * An entry's bytes for the content store. The store may decline to read them (blob already
 * present) by ending our generator; destroying a tar-stream entry would abort the whole archive, so
 * we drain what was not read instead.
 */
class EntryBody {
  private finished = false;
  constructor(private readonly entry: AsyncIterable<unknown>) {}

  async *chunks(): AsyncGenerator<Buffer> {
    for await (const chunk of this.entry) yield chunk as Buffer;
    this.finished = true;
  }

  async drain(): Promise<void> {
    if (this.finished) return;
    for await (const _ of this.entry) void _;
    this.finished = true;
  }
}

/** The blob stored for an archive path, following symlinks. */
export function blobAt(contents: ArchiveContents, path: string, archivePath: string): ContentInfo {
  let p = cleanPath(path) ?? path;
  for (let i = 0; i < 8 && contents.links.has(p); i++) p = contents.links.get(p) as string;
  const info = contents.blobs.get(p);
  if (!info) throw invalidArgument(`image archive ${archivePath}: ${path} is missing`);
  return info;
}

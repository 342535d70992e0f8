// Builds layer tarballs by hand for tests (shared by the archive and rootfs suites).
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import * as tar from 'tar-stream';

export interface TarEntry {
  name: string;
  type?: 'file' | 'link' | 'symlink' | 'directory' | 'block-device' | 'character-device' | 'fifo';
  mode?: number;
  uid?: number;
  gid?: number;
  mtime?: Date;
  linkname?: string;
  data?: string | Buffer;
  devmajor?: number;
  devminor?: number;
  pax?: Record<string, string>;
}

export const T0 = new Date('2020-01-02T03:04:05Z');

export async function buildTar(entries: readonly TarEntry[]): Promise<Buffer> {
  const pack = tar.pack();
  const chunks: Buffer[] = [];
  const collected = (async () => {
    for await (const chunk of pack) chunks.push(Buffer.from(chunk as Uint8Array));
  })();
  for (const e of entries) {
    const type = e.type ?? 'file';
    const data = e.data === undefined ? undefined : Buffer.from(e.data);
    const header = {
      name: e.name,
      type,
      mode: e.mode ?? (type === 'directory' ? 0o755 : 0o644),
      uid: e.uid ?? 0,
      gid: e.gid ?? 0,
      mtime: e.mtime ?? T0,
      linkname: e.linkname,
      devmajor: e.devmajor,
      devminor: e.devminor,
      pax: e.pax,
      size: data?.length ?? 0,
    };
    await new Promise<void>((resolve, reject) => {
      const done = (err?: Error | null): void => (err ? reject(err) : resolve());
      if (data) pack.entry(header, data, done);
      else pack.entry(header, done);
    });
  }
  pack.finalize();
  await collected;
  return Buffer.concat(chunks);
}

export const gzip = (buf: Buffer): Buffer => gzipSync(buf);
export const sha256 = (buf: Buffer): string => `sha256:${createHash('sha256').update(buf).digest('hex')}`;
/** A stream of `buf` in small chunks, so parsing crosses chunk boundaries. */
export const streamOf = (buf: Buffer, chunk = 1000): Readable =>
  Readable.from(
    Array.from({ length: Math.ceil(buf.length / chunk) }, (_, i) => buf.subarray(i * chunk, (i + 1) * chunk)),
    { objectMode: false },
  );

// Sniffs a layer blob's compression from its first bytes and returns the uncompressed stream.
// Media types lie often enough (and OCI allows either) that the magic bytes are the authority.
import { Readable } from 'node:stream';
import * as zlib from 'node:zlib';
import { unimplemented } from '../errdefs/errors';
import { zstdDecompressedByTool } from './zstd_process';

export type Compression = 'none' | 'gzip' | 'zstd' | 'bzip2' | 'xz';

const MAGIC: ReadonlyArray<[Compression, number[]]> = [
  ['gzip', [0x1f, 0x8b]],
  ['zstd', [0x28, 0xb5, 0x2f, 0xfd]],
  ['bzip2', [0x42, 0x5a, 0x68]],
  ['xz', [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]],
];

export function detectCompression(head: Buffer): Compression {
  for (const [kind, magic] of MAGIC) {
    if (head.length >= magic.length && magic.every((b, i) => head[i] === b)) return kind;
  }
  return 'none';
}

// zlib.createZstdDecompress exists from Node 22.15; typed loosely so Node 20 builds still compile.
type ZstdFactory = (opts: { chunkSize: number }) => NodeJS.ReadWriteStream;

/**
 * Output chunk of the decompressors. Each chunk is one trip through the thread pool (a futex wake
 * and an eventfd write and read); zlib's 16 KiB default made that three system calls per small
 * file of a typical layer, and split one file in ten across two chunks (two writes).
 */
export const DECOMPRESSED_CHUNK_BYTES = 256 * 1024;
// Looked up when called, not at load: berthd's bundle loads zlib at its first use (hack/bundle/lazy_builtins.ts).
const zstdFactory = (): ZstdFactory | undefined => (zlib as unknown as { createZstdDecompress?: ZstdFactory }).createZstdDecompress;

/** The uncompressed bytes of `source`, whatever of gzip/zstd/none it is. */
export async function decompressed(source: AsyncIterable<Buffer | Uint8Array>): Promise<{ stream: Readable; compression: Compression }> {
  const iterator = source[Symbol.asyncIterator]();
  const head: Buffer[] = [];
  let headLength = 0;
  let ended = false;
  while (headLength < 6) {
    const next = await iterator.next();
    if (next.done) {
      ended = true;
      break;
    }
    const chunk = Buffer.from(next.value);
    head.push(chunk);
    headLength += chunk.length;
  }
  const compression = detectCompression(Buffer.concat(head));
  async function* replay(): AsyncGenerator<Buffer> {
    yield* head;
    if (ended) return;
    for (;;) {
      const next = await iterator.next();
      if (next.done) return;
      yield Buffer.from(next.value);
    }
  }
  const raw = Readable.from(replay(), { objectMode: false });
  switch (compression) {
    case 'none':
      return { stream: raw, compression };
    case 'gzip':
      return { stream: raw.pipe(withErrors(raw, zlib.createGunzip({ chunkSize: DECOMPRESSED_CHUNK_BYTES }))), compression };
    case 'zstd': {
      const zstd = zstdFactory();
      if (zstd) return { stream: raw.pipe(withErrors(raw, zstd({ chunkSize: DECOMPRESSED_CHUNK_BYTES }) as unknown as zlib.Gunzip)), compression };
      return { stream: zstdDecompressedByTool(raw, DECOMPRESSED_CHUNK_BYTES), compression };
    }
    default:
      break;
  }
  raw.destroy();
  throw unimplemented(`layer is ${compression}-compressed; this Node (${process.version}) cannot decompress it`);
}

// pipe() does not forward errors: a failing source must fail the decompressor too.
function withErrors<T extends NodeJS.WritableStream & Readable>(source: Readable, dest: T): T {
  source.on('error', (err) => dest.destroy(err));
  return dest;
}

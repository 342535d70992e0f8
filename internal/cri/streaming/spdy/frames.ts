// SPDY/3 framing (the wire format of SPDY/3.1, which only adds session flow control): 8-byte
// frame headers, control frames with a type, data frames with a stream ID, and the uncompressed
// name/value header block. Compression of header blocks lives in header_codec.ts.
import { BerthError } from '../../../errdefs/errors';

export const SPDY_VERSION = 3;
export const FRAME_HEADER_SIZE = 8;
/** Data frames are cut to this size; the field allows 16 MiB but peers buffer whole frames. */
export const MAX_DATA_CHUNK = 64 * 1024;
/** The largest decompressed header block we accept (zlib bombs stop here). */
export const MAX_HEADER_BLOCK = 1024 * 1024;
/** The most name/value pairs in one header block; clients send about five. */
export const MAX_HEADER_COUNT = 256;
/**
 * The largest frame we read. The wire allows 16 MiB, which we would buffer whole; real clients
 * (spdystream through io.Copy) send 32 KiB data frames and header blocks of a few hundred bytes.
 * A compressed block may be slightly larger than its cap once inflated is not: hence the slack.
 */
export const MAX_FRAME_LENGTH = MAX_HEADER_BLOCK + 64 * 1024;

export const FrameType = {
  SYN_STREAM: 1,
  SYN_REPLY: 2,
  RST_STREAM: 3,
  SETTINGS: 4,
  PING: 6,
  GOAWAY: 7,
  HEADERS: 8,
  WINDOW_UPDATE: 9,
} as const;

export const FLAG_FIN = 0x01;
export const FLAG_UNIDIRECTIONAL = 0x02;

export const RstStatus = {
  PROTOCOL_ERROR: 1,
  INVALID_STREAM: 2,
  REFUSED_STREAM: 3,
  CANCEL: 5,
  INTERNAL_ERROR: 6,
  STREAM_ALREADY_CLOSED: 9,
} as const;

export const GoawayStatus = { OK: 0, PROTOCOL_ERROR: 1, INTERNAL_ERROR: 2 } as const;

export type Frame =
  | { control: true; version: number; type: number; flags: number; body: Buffer }
  | { control: false; streamId: number; flags: number; data: Buffer };

export const protocolError = (message: string) => new BerthError('InvalidArgument', `spdy: ${message}`);

/** Cuts a byte stream into frames; keeps partial frames until the rest arrives. Throws on an oversized frame. */
export class FrameReader {
  private chunks: Buffer[] = [];
  private buffered = 0;

  push(data: Buffer): Frame[] {
    if (data.length > 0) {
      this.chunks.push(data);
      this.buffered += data.length;
    }
    const frames: Frame[] = [];
    while (this.buffered >= FRAME_HEADER_SIZE) {
      const head = this.peek(FRAME_HEADER_SIZE);
      const length = head.readUIntBE(5, 3);
      if (length > MAX_FRAME_LENGTH) throw protocolError(`frame of ${length} bytes is over the ${MAX_FRAME_LENGTH}-byte limit`);
      if (this.buffered < FRAME_HEADER_SIZE + length) break;
      const whole = this.take(FRAME_HEADER_SIZE + length);
      const payload = whole.subarray(FRAME_HEADER_SIZE);
      const flags = whole[4];
      if (whole[0] & 0x80) {
        frames.push({ control: true, version: whole.readUInt16BE(0) & 0x7fff, type: whole.readUInt16BE(2), flags, body: payload });
      } else {
        frames.push({ control: false, streamId: whole.readUInt32BE(0) & 0x7fffffff, flags, data: payload });
      }
    }
    return frames;
  }

  private peek(n: number): Buffer {
    if (this.chunks[0].length < n) this.chunks = [Buffer.concat(this.chunks)];
    return this.chunks[0].subarray(0, n);
  }

  private take(n: number): Buffer {
    if (this.chunks[0].length < n) this.chunks = [Buffer.concat(this.chunks)];
    const first = this.chunks[0];
    const out = first.subarray(0, n);
    if (first.length === n) this.chunks.shift();
    else this.chunks[0] = first.subarray(n);
    this.buffered -= n;
    return out;
  }
}

export function controlFrame(type: number, flags: number, body: Buffer): Buffer {
  const head = Buffer.alloc(FRAME_HEADER_SIZE);
  head.writeUInt16BE(0x8000 | SPDY_VERSION, 0);
  head.writeUInt16BE(type, 2);
  head[4] = flags;
  head.writeUIntBE(body.length, 5, 3);
  return Buffer.concat([head, body]);
}

export function dataFrame(streamId: number, flags: number, data: Buffer): Buffer {
  const head = Buffer.alloc(FRAME_HEADER_SIZE);
  head.writeUInt32BE(streamId & 0x7fffffff, 0);
  head[4] = flags;
  head.writeUIntBE(data.length, 5, 3);
  return Buffer.concat([head, data]);
}

/** A body made of big-endian 32-bit words (RST_STREAM, GOAWAY, PING, WINDOW_UPDATE). */
export function wordsBody(...words: number[]): Buffer {
  const body = Buffer.alloc(words.length * 4);
  words.forEach((w, i) => body.writeUInt32BE(w >>> 0, i * 4));
  return body;
}

/** Header names are lowercase on the wire (Go's framer rejects others); values join with NUL. */
export function encodeHeaderBlock(headers: Record<string, string>): Buffer {
  const entries = Object.entries(headers);
  const parts: Buffer[] = [wordsBody(entries.length)];
  for (const [name, value] of entries) {
    const n = Buffer.from(name.toLowerCase());
    const v = Buffer.from(value);
    parts.push(wordsBody(n.length), n, wordsBody(v.length), v);
  }
  return Buffer.concat(parts);
}

/** Decodes an uncompressed header block; for repeated values keeps the first, as Header.Get does. */
export function decodeHeaderBlock(block: Buffer): Record<string, string> {
  const headers: Record<string, string> = {};
  let off = 0;
  const word = () => {
    if (off + 4 > block.length) throw protocolError('header block truncated');
    const w = block.readUInt32BE(off);
    off += 4;
    return w;
  };
  const bytes = (len: number) => {
    if (off + len > block.length) throw protocolError('header block truncated');
    const s = block.toString('utf8', off, off + len);
    off += len;
    return s;
  };
  const count = word();
  if (count > MAX_HEADER_COUNT) throw protocolError(`header block of ${count} headers is over the ${MAX_HEADER_COUNT}-header limit`);
  for (let i = 0; i < count; i++) {
    const name = bytes(word()).toLowerCase();
    const value = bytes(word());
    if (!(name in headers)) headers[name] = value.split('\0')[0];
  }
  return headers;
}

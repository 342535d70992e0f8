// Go gRPC clients of the crictl 1.26 / critest / older kubelet generation dial a unix socket with
// its path as the HTTP/2 :authority ("/run/berth/berth.sock"). nghttp2, under Node's http2 and so
// grpc-js, refuses such an authority with RST_STREAM PROTOCOL_ERROR, while Go's server accepts it.
// This stream sits between the accepted socket and grpc-js: it re-encodes every client header
// block with a valid authority ("localhost", what newer clients send). Server-to-client bytes pass
// untouched.
//
// HPACK state: the client's encoder indexes into a dynamic table the server's decoder mirrors. We
// decode each block with our own mirror of the client's table and re-encode it with literals that
// never touch the server's table, so both sides stay consistent whatever the client does.
import hpack from 'hpack.js';

/** The client connection preface of HTTP/2 with prior knowledge. */
export const PREFACE = Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n');
// Frame layout and the types and flags read here and in connection_route.ts (RFC 9113 section 6).
export const FRAME_HEADER = 9;
export const TYPE_HEADERS = 0x1;
export const TYPE_PRIORITY = 0x2;
export const TYPE_SETTINGS = 0x4;
export const TYPE_WINDOW_UPDATE = 0x8;
export const TYPE_CONTINUATION = 0x9;
export const FLAG_ACK = 0x1;
const FLAG_END_STREAM = 0x1;
export const FLAG_END_HEADERS = 0x4;
const FLAG_PADDED = 0x8;
const FLAG_PRIORITY = 0x20;
// nghttp2's defaults, which grpc-js does not change: the table the client may use, the frame size we may send.
export const HEADER_TABLE_SIZE = 4096;
const MAX_FRAME_SIZE = 16384;
// What one client may make us hold while a frame or header block is incomplete. nghttp2 refuses
// frames over its SETTINGS_MAX_FRAME_SIZE (16 KiB here) anyway, and header lists over
// MAX_HEADER_LIST_SIZE (below), which no encoded block much larger than it can stay under.
const MAX_BUFFERED_FRAME = MAX_FRAME_SIZE + FRAME_HEADER;
const MAX_HEADER_BLOCK = 128 * 1024;
/**
 * The header list the server takes (Node's SETTINGS_MAX_HEADER_LIST_SIZE), counted as RFC 7541
 * section 4.1 counts it: name + value + 32 per field. Decoding is where a block grows: a 1-byte
 * reference to a 4 KiB table entry is 4 KiB of header, and 250 KB of such references, re-encoded
 * as literals, held berthd's thread for 28 s and ~4 GB.
 */
const MAX_HEADER_LIST_SIZE = 65535;

type Decompressor = ReturnType<typeof hpack.decompressor.create>;
type DecodedHeader = NonNullable<ReturnType<Decompressor['read']>>;

/**
 * Decodes one complete header block with `decoder` (whose dynamic table it updates). Throws what
 * cannot be decoded, here rather than a tick later as hpack.js's execute() callback would report it,
 * and a header list over MAX_HEADER_LIST_SIZE once decoded.
 */
export function decodeHeaderBlock(decoder: Decompressor, block: Buffer): DecodedHeader[] {
  decoder.write(block);
  decoder.execute();
  const headers: DecodedHeader[] = [];
  let listSize = 0;
  for (let h = decoder.read(); h !== null; h = decoder.read()) {
    listSize += h.name.length + h.value.length + 32;
    if (listSize > MAX_HEADER_LIST_SIZE) throw new Error(`header list over ${MAX_HEADER_LIST_SIZE} bytes once decoded`);
    headers.push(h);
  }
  return headers;
}

/** An authority nghttp2 accepts: host[:port] characters only. */
export function isAcceptableAuthority(value: string): boolean {
  return /^[A-Za-z0-9\-._~%!$&'()*+,;=:@[\]]*$/.test(value) && !value.includes('/');
}

function encodeInt(value: number, prefixBits: number, firstByte: number): number[] {
  const max = (1 << prefixBits) - 1;
  if (value < max) return [firstByte | value];
  const out = [firstByte | max];
  value -= max;
  while (value >= 128) {
    out.push((value % 128) + 128);
    value = Math.floor(value / 128);
  }
  out.push(value);
  return out;
}

function encodeString(s: string): Buffer {
  const bytes = Buffer.from(s, 'latin1');
  return Buffer.concat([Buffer.from(encodeInt(bytes.length, 7, 0)), bytes]);
}

/** Literal header fields without indexing (or never-indexed), new names: no dynamic table use. */
export function encodeLiteralBlock(headers: readonly { name: string; value: string; neverIndex?: boolean }[]): Buffer {
  const parts: Buffer[] = [];
  for (const h of headers) {
    parts.push(Buffer.from([h.neverIndex ? 0x10 : 0x00]), encodeString(h.name), encodeString(h.value));
  }
  return Buffer.concat(parts);
}

/**
 * A HEADERS frame's payload as its priority bytes (when flagged) and its header block fragment,
 * padding removed; undefined when the padding or priority fields do not fit in it.
 */
export function splitHeadersPayload(flags: number, payload: Buffer): { priority: Buffer; fragment: Buffer } | undefined {
  let start = 0;
  let end = payload.length;
  if (flags & FLAG_PADDED) {
    if (payload.length < 1) return undefined;
    start = 1;
    end -= payload[0]!;
  }
  const fragmentStart = flags & FLAG_PRIORITY ? start + 5 : start;
  if (fragmentStart > end) return undefined;
  return { priority: payload.subarray(start, fragmentStart), fragment: payload.subarray(fragmentStart, end) };
}

/** One HTTP/2 frame: the 9-byte header, then `payload`. */
export function frame(type: number, flags: number, streamId: number, payload: Buffer): Buffer {
  const head = Buffer.alloc(FRAME_HEADER);
  head.writeUIntBE(payload.length, 0, 3);
  head[3] = type;
  head[4] = flags;
  head.writeUInt32BE(streamId & 0x7fffffff, 5);
  return Buffer.concat([head, payload]);
}

/**
 * Rewrites the client-to-server byte stream of one HTTP/2 connection. The first header block
 * decides: a valid authority switches the connection to passthrough (no per-frame work at all);
 * an invalid one makes every later block re-encoded.
 */
export class ClientStreamRewriter {
  /**
   * Drops the client's first SETTINGS acknowledgement: it acknowledges the SETTINGS frame
   * connection_route.ts sent before the server was attached, which the server never sent. Until
   * then every frame is looked at, even after a valid authority.
   */
  constructor(private dropSettingsAck = false) {}

  private buffered: Buffer = Buffer.alloc(0);
  private prefaceSeen = false;
  private readonly decoder = hpack.decompressor.create({ table: { size: HEADER_TABLE_SIZE } });
  private pending: { streamId: number; flags: number; priority: Buffer; fragments: Buffer[]; raw: Buffer[]; size: number } | undefined;
  private passthrough = false;
  /** Set once a block was re-encoded: from then on every block must be (the HPACK tables diverged). */
  private rewriting = false;

  /** Feeds bytes from the client; returns the bytes to hand to the server. */
  push(chunk: Buffer): Buffer[] {
    if (this.passthrough && !this.dropSettingsAck) {
      // Bytes of a frame that straddled the switch are still buffered: they go first.
      if (this.buffered.length === 0) return [chunk];
      const out = [this.buffered, chunk];
      this.buffered = Buffer.alloc(0);
      return out;
    }
    this.buffered = this.buffered.length === 0 ? chunk : Buffer.concat([this.buffered, chunk]);
    const out: Buffer[] = [];
    if (!this.prefaceSeen) {
      if (this.buffered.length < PREFACE.length) return out;
      if (!this.buffered.subarray(0, PREFACE.length).equals(PREFACE)) {
        // Not HTTP/2 with prior knowledge: let the server answer it.
        this.passThroughUnparsed();
        out.push(this.buffered);
        this.buffered = Buffer.alloc(0);
        return out;
      }
      out.push(this.buffered.subarray(0, PREFACE.length));
      this.buffered = this.buffered.subarray(PREFACE.length);
      this.prefaceSeen = true;
    }
    while (this.buffered.length >= FRAME_HEADER) {
      const length = this.buffered.readUIntBE(0, 3);
      if (FRAME_HEADER + length > MAX_BUFFERED_FRAME && !this.rewriting) {
        // Larger than the server accepts: it answers that itself (FRAME_SIZE_ERROR); nothing to keep.
        this.passThroughUnparsed();
        out.push(this.buffered);
        this.buffered = Buffer.alloc(0);
        break;
      }
      if (FRAME_HEADER + length > MAX_BUFFERED_FRAME) throw new Error(`frame of ${length} bytes exceeds the frame size limit`);
      if (this.buffered.length < FRAME_HEADER + length) break;
      const raw = this.buffered.subarray(0, FRAME_HEADER + length);
      this.buffered = this.buffered.subarray(FRAME_HEADER + length);
      const type = raw[3];
      if (this.dropSettingsAck && type === TYPE_SETTINGS && raw[4]! & FLAG_ACK && length === 0) {
        this.dropSettingsAck = false;
      } else if (this.passthrough) {
        out.push(raw);
      } else if (type === TYPE_HEADERS || (type === TYPE_CONTINUATION && this.pending)) {
        const rewritten = this.onHeaderFrame(raw);
        if (rewritten) out.push(rewritten);
      } else {
        out.push(raw);
      }
      if (this.passthrough && !this.dropSettingsAck) {
        if (this.buffered.length > 0) out.push(this.buffered);
        this.buffered = Buffer.alloc(0);
        break;
      }
    }
    return out;
  }

  /**
   * From here on every byte goes to the server as it comes, unparsed. Frame boundaries are no longer
   * followed, so an acknowledgement still to be dropped is not looked for either: a frame's payload
   * could hold the same nine bytes, and the server ends such a connection anyway.
   */
  private passThroughUnparsed(): void {
    this.passthrough = true;
    this.dropSettingsAck = false;
  }

  private onHeaderFrame(raw: Buffer): Buffer | undefined {
    const type = raw[3];
    const flags = raw[4];
    const streamId = raw.readUInt32BE(5) & 0x7fffffff;
    const payload = raw.subarray(FRAME_HEADER);
    if (type === TYPE_HEADERS) {
      const parts = splitHeadersPayload(flags, payload);
      if (parts === undefined) throw new Error('HEADERS frame whose padding or priority does not fit');
      const { priority, fragment } = parts;
      this.pending = { streamId, flags, priority: Buffer.from(priority), fragments: [Buffer.from(fragment)], raw: [Buffer.from(raw)], size: fragment.length };
    } else {
      this.pending!.fragments.push(Buffer.from(payload));
      this.pending!.raw.push(Buffer.from(raw));
      // A CONTINUATION flood must not grow without end.
      this.pending!.size += payload.length;
      if (this.pending!.size > MAX_HEADER_BLOCK) throw new Error(`header block over ${MAX_HEADER_BLOCK} bytes`);
    }
    if (!(flags & FLAG_END_HEADERS)) return undefined;
    const block = this.pending!;
    this.pending = undefined;
    return this.reencode(block);
  }

  private reencode(block: { streamId: number; flags: number; priority: Buffer; fragments: Buffer[]; raw: Buffer[] }): Buffer {
    const headers = decodeHeaderBlock(this.decoder, Buffer.concat(block.fragments));
    const bad = headers.filter((h) => h.name === ':authority' && !isAcceptableAuthority(h.value));
    if (bad.length === 0 && !this.rewriting) {
      // A client that sends a valid authority (grpc-js, newer Go clients send "localhost") keeps it
      // for the connection: pass this block as it came, and everything after it untouched.
      this.passthrough = true;
      return Buffer.concat(block.raw);
    }
    this.rewriting = true;
    for (const h of bad) h.value = 'localhost';
    const encoded = Buffer.concat([block.priority, encodeLiteralBlock(headers)]);
    const flagsOut = (block.flags & (FLAG_END_STREAM | FLAG_PRIORITY)) | FLAG_END_HEADERS;
    if (encoded.length <= MAX_FRAME_SIZE) return frame(TYPE_HEADERS, flagsOut, block.streamId, encoded);
    // Too large for one frame: HEADERS without END_HEADERS, then CONTINUATIONs.
    const frames: Buffer[] = [];
    for (let off = 0; off < encoded.length; off += MAX_FRAME_SIZE) {
      const part = encoded.subarray(off, off + MAX_FRAME_SIZE);
      const last = off + MAX_FRAME_SIZE >= encoded.length;
      const first = off === 0;
      const type = first ? TYPE_HEADERS : TYPE_CONTINUATION;
      const f = (first ? flagsOut & ~FLAG_END_HEADERS : 0) | (last ? FLAG_END_HEADERS : 0);
      frames.push(frame(type, f, block.streamId, part));
    }
    return Buffer.concat(frames);
  }
}

// Reads an accepted HTTP/2 connection's first bytes up to its first request, for connection_route.ts:
// the preface, then whole frames until the first complete header block (and, once our SETTINGS
// were sent, the client's acknowledgement of them) or something else decides the way. Each byte
// is copied and each frame read once: reading everything again at every chunk cost a client
// trickling 60 KB a byte at a time ~0.75 s of berthd's thread, and 5,000 tiny frames ~1.2 s.
import hpack from 'hpack.js';
import {
  decodeHeaderBlock,
  FLAG_ACK,
  FLAG_END_HEADERS,
  FRAME_HEADER,
  HEADER_TABLE_SIZE,
  isAcceptableAuthority,
  PREFACE,
  splitHeadersPayload,
  TYPE_CONTINUATION,
  TYPE_HEADERS,
  TYPE_PRIORITY,
  TYPE_SETTINGS,
  TYPE_WINDOW_UPDATE,
} from './authority_rewrite';

export type Verdict = 'direct' | 'bridge' | 'refuse';

/** Where the bytes read so far stand: undecided, or decided with the bytes to pass on. */
export interface Reading {
  verdict?: Verdict;
  /**
   * When routed ('direct' or 'bridge'): the client's bytes, without the acknowledgement of our
   * SETTINGS if that was among them. Empty otherwise.
   */
  forward: Buffer;
  /** Our SETTINGS were sent and their acknowledgement is still to come (the bridge drops it). */
  ackToCome: boolean;
  /** A HEADERS frame has begun (the client did not wait for our preface). */
  requestBegun: boolean;
}

/** The first header block's :authority, from its HEADERS and CONTINUATION payloads; undefined if it cannot be decoded. */
function authorityOf(fragments: Buffer[]): string | undefined {
  try {
    const headers = decodeHeaderBlock(hpack.decompressor.create({ table: { size: HEADER_TABLE_SIZE } }), Buffer.concat(fragments));
    return headers.find((h) => h.name === ':authority')?.value;
  } catch {
    return undefined; // the bridge refuses it (the server would end the connection as well)
  }
}

/** `bytes` without the (empty) SETTINGS acknowledgement frame at `at`. */
function withoutFrameAt(bytes: Buffer, at: number): Buffer {
  return Buffer.concat([bytes.subarray(0, at), bytes.subarray(at + FRAME_HEADER)]);
}

const EMPTY = Buffer.alloc(0);

export class FirstRequestReader {
  private bytes = Buffer.allocUnsafe(1024);
  private length = 0;
  /** Where the next frame not yet read begins; 0 until the preface is whole. */
  private offset = 0;
  /** Where the acknowledgement of our SETTINGS is, once read. */
  private ackAt: number | undefined;
  /** The first header block's fragments so far, once its HEADERS frame is read. */
  private fragments: Buffer[] | undefined;
  /**
   * Our SETTINGS went out: a SETTINGS acknowledgement read from here on is theirs. One read before
   * cannot be (the client sent it before it could have seen ours) and is passed on as it came.
   */
  settingsSent = false;

  /** How many bytes the client has sent. */
  get size(): number {
    return this.length;
  }

  /** Takes the client's next bytes and reads every frame they complete. */
  push(chunk: Buffer): Reading {
    if (this.length + chunk.length > this.bytes.length) {
      const grown = Buffer.allocUnsafe(Math.max(this.bytes.length * 2, this.length + chunk.length));
      this.bytes.copy(grown, 0, 0, this.length);
      this.bytes = grown;
    }
    this.bytes.set(chunk, this.length);
    this.length += chunk.length;
    return this.read();
  }

  private read(): Reading {
    if (this.offset === 0) {
      const seen = Math.min(this.length, PREFACE.length);
      if (this.bytes.compare(PREFACE, 0, seen, 0, seen) !== 0) return this.refuse();
      if (seen < PREFACE.length) return this.undecided(false);
      this.offset = PREFACE.length;
    }
    const bytes = this.bytes;
    while (this.length - this.offset >= FRAME_HEADER) {
      const at = this.offset;
      const length = bytes.readUIntBE(at, 3);
      const type = bytes[at + 3]!;
      const flags = bytes[at + 4]!;
      if (this.length - at < FRAME_HEADER + length) return this.undecided(type === TYPE_HEADERS);
      const payload = bytes.subarray(at + FRAME_HEADER, at + FRAME_HEADER + length);
      this.offset = at + FRAME_HEADER + length;
      let authority: string | undefined | null = null; // null: no complete header block yet
      let interrupted = false;
      if (this.settingsSent && type === TYPE_SETTINGS && flags & FLAG_ACK && this.ackAt === undefined) {
        // The first acknowledgement after ours went out can only be of ours: nothing else was sent.
        if (length !== 0) return this.refuse();
        this.ackAt = at;
      } else if (this.fragments === undefined && type === TYPE_HEADERS) {
        const fragment = splitHeadersPayload(flags, payload)?.fragment;
        if (fragment === undefined) return this.refuse();
        this.fragments = [fragment];
        if (flags & FLAG_END_HEADERS) authority = authorityOf(this.fragments);
      } else if (this.fragments !== undefined) {
        if (type !== TYPE_CONTINUATION) return this.refuse(); // the server would end the connection (PROTOCOL_ERROR)
        this.fragments.push(payload);
        if (flags & FLAG_END_HEADERS) authority = authorityOf(this.fragments);
      } else if (!(type === TYPE_SETTINGS || type === TYPE_WINDOW_UPDATE || type === TYPE_PRIORITY)) {
        interrupted = true; // a PING, say: it wants the real server now
      }
      if (authority === null && !interrupted) continue;
      // Decided. Without the acknowledgement yet (if one is to come), only the bridge can still drop it.
      const received = bytes.subarray(0, this.length);
      const forward = this.ackAt === undefined ? received : withoutFrameAt(received, this.ackAt);
      const ackToCome = this.settingsSent && this.ackAt === undefined;
      const acceptable = !interrupted && authority !== null && authority !== undefined && isAcceptableAuthority(authority);
      return { verdict: acceptable && !ackToCome ? 'direct' : 'bridge', forward, ackToCome, requestBegun: true };
    }
    return this.undecided(false);
  }

  /**
   * Whether the client's preface and the whole frame after it are in (its SETTINGS, if it is a
   * client at all): the handshake grpc-go's server bounds in time.
   */
  get handshakeDone(): boolean {
    const firstFrame = PREFACE.length;
    if (this.length < firstFrame + FRAME_HEADER) return false;
    return this.length >= firstFrame + FRAME_HEADER + this.bytes.readUIntBE(firstFrame, 3);
  }

  /** `headersPending`: the incomplete frame at the end is a HEADERS frame. */
  private undecided(headersPending: boolean): Reading {
    return { forward: EMPTY, ackToCome: this.settingsSent, requestBegun: this.fragments !== undefined || headersPending };
  }

  private refuse(): Reading {
    return { verdict: 'refuse', forward: EMPTY, ackToCome: false, requestBegun: false };
  }
}

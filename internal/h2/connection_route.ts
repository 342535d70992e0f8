// Which way an accepted connection reaches grpc-js. Only clients that send the socket path as
// :authority (Go clients of the crictl 1.26 / older kubelet generation) need the header rewrite of
// connection_bridge.ts, and the bridge costs every call of every client two more socket hops and
// a copy through JavaScript. So the first header block decides, as the rewriter itself would: a
// client whose first request carries an acceptable authority (grpc-js, newer Go clients send
// "localhost") is handed to grpc-js as the very socket it connected on, a native net.Socket with
// the bytes read so far put back (Node's HTTP/2 session reads what a socket already buffered);
// any other client goes through the bridge, as all did before.
//
// grpc-go waits for the server's connection preface (a SETTINGS frame) before its first request,
// and no server is attached while this waits for that request. So when the client's first bytes
// hold no request, this sends an empty SETTINGS frame itself (a legal server preface: the real
// server's own SETTINGS follow, and a server may send SETTINGS at any time), and the client's
// acknowledgement of it, the one frame the real server must not see, is dropped: here when it
// comes before the first request (the client is then handed over directly), else by the bridge
// whenever it comes (a client that never acknowledges is bridged, as it always was). A client that
// pings (or sends anything but SETTINGS, WINDOW_UPDATE or PRIORITY) before its first request is
// bridged at once, so the real server answers it.
import type { Socket } from 'node:net';
import hpack from 'hpack.js';
import { bridgeConnection } from './connection_bridge';
import {
  decodeHeaderBlock,
  FLAG_ACK,
  FLAG_END_HEADERS,
  frame,
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

/** The server preface sent before the real server is attached: SETTINGS with no parameters. */
const EMPTY_SETTINGS = frame(TYPE_SETTINGS, 0, 0, Buffer.alloc(0));
/** What a client may send before its first request is decided on (a header block of 16 KiB and change). */
const MAX_UNDECIDED = 64 * 1024;
/**
 * How long a client has to send the connection preface and its first frame: grpc-go's server
 * (containerd's) gives 120 s for that handshake, then closes the connection. After it, as there, a
 * connection may stay without a request for as long as the client likes.
 */
export const HANDSHAKE_TIMEOUT_MS = 120_000;

type Verdict = 'direct' | 'bridge' | 'refuse';

/** Where the bytes read so far stand: undecided, or decided with the bytes to pass on. */
interface Reading {
  verdict?: Verdict;
  /** The client's bytes, without the acknowledgement of our SETTINGS if that was among them. */
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

/**
 * Reads the client's bytes so far: the preface, then whole frames until the first complete header
 * block (and, when `settingsSent`, the acknowledgement of our SETTINGS) or something else decides.
 */
function read(bytes: Buffer, settingsSent: boolean): Reading {
  const undecided = (requestBegun: boolean): Reading => ({ forward: bytes, ackToCome: settingsSent, requestBegun });
  const refuse: Reading = { verdict: 'refuse', forward: bytes, ackToCome: false, requestBegun: false };
  if (bytes.length < PREFACE.length) return PREFACE.subarray(0, bytes.length).equals(bytes) ? undecided(false) : refuse;
  if (!bytes.subarray(0, PREFACE.length).equals(PREFACE)) return refuse;
  let offset = PREFACE.length;
  let ackAt: number | undefined;
  let fragments: Buffer[] | undefined;
  let authority: string | undefined | null = null; // null: no complete header block yet
  let interrupted = false;
  while (bytes.length - offset >= FRAME_HEADER) {
    const length = bytes.readUIntBE(offset, 3);
    const type = bytes[offset + 3]!;
    const flags = bytes[offset + 4]!;
    if (bytes.length - offset < FRAME_HEADER + length) return undecided(fragments !== undefined || type === TYPE_HEADERS);
    const payload = bytes.subarray(offset + FRAME_HEADER, offset + FRAME_HEADER + length);
    if (settingsSent && type === TYPE_SETTINGS && flags & FLAG_ACK && ackAt === undefined) {
      // The first acknowledgement can only be of our SETTINGS: nothing else was sent yet.
      if (length !== 0) return refuse;
      ackAt = offset;
    } else if (authority === null && fragments === undefined && type === TYPE_HEADERS) {
      const fragment = splitHeadersPayload(flags, payload)?.fragment;
      if (fragment === undefined) return refuse;
      fragments = [fragment];
      if (flags & FLAG_END_HEADERS) authority = authorityOf(fragments);
    } else if (authority === null && fragments !== undefined) {
      if (type !== TYPE_CONTINUATION) return refuse; // the server would end the connection (PROTOCOL_ERROR)
      fragments.push(payload);
      if (flags & FLAG_END_HEADERS) authority = authorityOf(fragments);
    } else if (authority === null && !(type === TYPE_SETTINGS || type === TYPE_WINDOW_UPDATE || type === TYPE_PRIORITY)) {
      interrupted = true; // a PING, say: it wants the real server now
    }
    offset += FRAME_HEADER + length;
    if (authority === null && !interrupted) continue;
    // Decided. Without the acknowledgement yet (if one is to come), only the bridge can still drop it.
    const forward = ackAt === undefined ? bytes : withoutFrameAt(bytes, ackAt);
    const ackToCome = settingsSent && ackAt === undefined;
    const acceptable = !interrupted && authority !== null && authority !== undefined && isAcceptableAuthority(authority);
    return { verdict: acceptable && !ackToCome ? 'direct' : 'bridge', forward, ackToCome, requestBegun: true };
  }
  return undecided(fragments !== undefined);
}

/** Whether `bytes` hold the client's preface and the whole frame after it (its SETTINGS, if it is a client at all). */
function handshakeDone(bytes: Buffer): boolean {
  const firstFrame = PREFACE.length;
  if (bytes.length < firstFrame + FRAME_HEADER) return false;
  return bytes.length >= firstFrame + FRAME_HEADER + bytes.readUIntBE(firstFrame, 3);
}

/** `bytes` without the (empty) SETTINGS acknowledgement frame at `at`. */
function withoutFrameAt(bytes: Buffer, at: number): Buffer {
  return Buffer.concat([bytes.subarray(0, at), bytes.subarray(at + FRAME_HEADER)]);
}

export interface RouteOptions {
  /** Holds the connection until its way is decided (whoever stops serving closes what is left in it). */
  undecided?: Set<Socket>;
  /** HANDSHAKE_TIMEOUT_MS unless given. */
  handshakeTimeoutMs?: number;
}

/**
 * Sends `client` (accepted with allowHalfOpen: true) to `inject` once its first request shows which
 * way: itself, or the bridge's server end. A client that closes, errors, sends what is not HTTP/2
 * with prior knowledge, more than MAX_UNDECIDED bytes before deciding, or not even its preface and
 * first frame within the handshake timeout is closed here.
 */
export function routeConnection(client: Socket, inject: (socket: Socket) => void, opts: RouteOptions = {}): void {
  const { undecided } = opts;
  undecided?.add(client);
  let handshakeTimer: NodeJS.Timeout | undefined = setTimeout(() => client.destroy(), opts.handshakeTimeoutMs ?? HANDSHAKE_TIMEOUT_MS);
  handshakeTimer.unref();
  const handshakeOver = () => {
    clearTimeout(handshakeTimer);
    handshakeTimer = undefined;
  };
  const settled = () => {
    undecided?.delete(client);
    handshakeOver();
  };
  client.once('close', settled);
  let buffered: Buffer = Buffer.alloc(0);
  let settingsSent = false;
  const close = () => client.destroy();
  const onData = (chunk: Buffer) => {
    buffered = buffered.length === 0 ? chunk : Buffer.concat([buffered, chunk]);
    if (handshakeTimer !== undefined && handshakeDone(buffered)) handshakeOver();
    const reading = read(buffered, settingsSent);
    if (reading.verdict === undefined && buffered.length <= MAX_UNDECIDED) {
      // No request yet: the client may be waiting for a server preface.
      if (!settingsSent && !reading.requestBegun && buffered.length >= PREFACE.length) {
        settingsSent = true;
        client.write(EMPTY_SETTINGS);
      }
      return;
    }
    client.off('data', onData);
    client.off('error', close);
    client.off('end', close);
    client.off('close', settled);
    settled();
    client.pause();
    if (reading.verdict === 'direct') {
      // A plain accepted socket from here on, as grpc-js's own listener would have given it.
      client.allowHalfOpen = false;
      client.unshift(reading.forward);
      inject(client);
    } else if (reading.verdict === 'bridge') {
      const server = bridgeConnection(client, reading.forward, reading.ackToCome);
      if (server) inject(server);
    } else {
      close();
    }
  };
  client.on('data', onData);
  client.on('error', close);
  client.on('end', close);
}

// Short-lived HTTP/2 gRPC connections that drop at random points, as a node's clients do when a
// crictl is killed or a kubelet times out a call: raw bytes on a unix socket, so the test chooses
// exactly where the connection ends and whether unread answer bytes are left behind (which makes
// the server's next read fail with ECONNRESET).
import * as net from 'node:net';
import { encodeLiteralBlock, frame, PREFACE } from '../../internal/h2/authority_rewrite';



/** Where a connection is dropped. */
export type DropPoint =
  | 'after-preface' // preface + SETTINGS only
  | 'mid-headers' // part of the HEADERS frame
  | 'mid-request' // HEADERS without the DATA frame
  | 'unread-response' // whole request, the answer left unread in our receive queue
  | 'mid-response' // whole request, a part of the answer read
  | 'burst-and-close' // the server's greeting left unread, then the whole request and the close at once
  | 'complete'; // whole request, every answer (trailers), then close

export const DROP_POINTS: readonly DropPoint[] = [
  'after-preface',
  'mid-headers',
  'mid-request',
  'unread-response',
  'mid-response',
  'burst-and-close',
  'complete',
];

/** The client bytes of one unary call on stream 1 (empty request message), split into steps. */
/** The header block of a gRPC call to `path` (literals only: no HPACK table state). */
export function grpcRequestHeaders(path: string, authority: string, extra: { name: string; value: string }[] = []): Buffer {
  return encodeLiteralBlock([
    { name: ':method', value: 'POST' },
    { name: ':scheme', value: 'http' },
    { name: ':path', value: path },
    { name: ':authority', value: authority },
    { name: 'content-type', value: 'application/grpc' },
    ...extra,
    { name: 'te', value: 'trailers' },
  ]);
}

export function unaryCallBytes(authority: string, path: string, streams = 1): { preface: Buffer; headers: Buffer[]; data: Buffer[] } {
  const headers: Buffer[] = [];
  const data: Buffer[] = [];
  for (let i = 0; i < streams; i++) {
    const id = 1 + 2 * i;
    headers.push(frame(0x1, 0x4, id, grpcRequestHeaders(path, authority)));
    data.push(frame(0x0, 0x1, id, Buffer.alloc(5))); // gRPC frame: uncompressed, length 0
  }
  return { preface: Buffer.concat([PREFACE, frame(0x4, 0, 0, Buffer.alloc(0))]), headers, data };
}

export interface DropOutcome {
  point: DropPoint;
  /** Response bytes received before the drop. */
  received: number;
  /** Streams whose answer ended (HEADERS with END_STREAM) before the drop. */
  answered: number;
  /** A connect error (the daemon was not accepting), if any. */
  error?: string;
}

function delay(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/**
 * One connection to `socket` that sends (part of) a call and drops at `point`. `settleMs` is how
 * long to wait before dropping, so the server is in the middle of something when we go.
 */
export function dropConnection(socket: string, authority: string, path: string, point: DropPoint, settleMs: number): Promise<DropOutcome> {
  return new Promise((resolve) => {
    const conn = net.connect(socket);
    const streams = point === 'complete' || point === 'mid-response' ? 3 : 1;
    let received = 0;
    let answered = 0;
    let pending = Buffer.alloc(0);
    let done = false;
    const finish = (error?: string) => {
      if (done) return;
      done = true;
      conn.destroy();
      resolve({ point, received, answered, ...(error ? { error } : {}) });
    };
    conn.on('error', (err) => finish(err.message));
    conn.on('close', () => finish());
    conn.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (point === 'mid-response') return finish();
      pending = Buffer.concat([pending, chunk]);
      while (pending.length >= 9 && pending.length >= 9 + pending.readUIntBE(0, 3)) {
        if (pending[3] === 0x1 && pending[4] & 0x1) answered++; // trailers (or a trailers-only answer)
        pending = pending.subarray(9 + pending.readUIntBE(0, 3));
      }
      // A finished client goes once it has every answer: half-close, then close.
      if (point === 'complete' && answered === streams) {
        conn.end();
        finish();
      }
    });
    conn.on('connect', () => {
      const call = unaryCallBytes(authority, path, streams);
      void (async () => {
        if (point === 'burst-and-close') {
          // berthd reads our request and, in the same read loop, ECONNRESET (its greeting is unread
          // here): it answers SETTINGS while the connection is already failing.
          conn.pause();
          await delay(settleMs + 1);
          conn.write(Buffer.concat([call.preface, ...call.headers, ...call.data]));
          return finish();
        }
        conn.write(call.preface);
        if (point === 'after-preface') return delay(settleMs).then(() => finish());
        if (point === 'mid-headers') {
          conn.write(call.headers[0].subarray(0, 9 + 5));
          return delay(settleMs).then(() => finish());
        }
        conn.write(Buffer.concat(call.headers));
        if (point === 'mid-request') return delay(settleMs).then(() => finish());
        if (point === 'unread-response') conn.pause(); // the answer stays in our receive queue
        conn.write(Buffer.concat(call.data));
        if (point === 'unread-response') return delay(settleMs).then(() => finish());
        // 'complete' waits for its answers (above).
      })();
    });
    // A guard against hanging, not a timing assertion: a complete call's answers are checked by the caller.
    setTimeout(() => finish('no answer within 60 s'), 60_000).unref();
  });
}

/**
 * `connections` drops spread over `concurrency` workers, cycling through every drop point with
 * settle times in 0..maxSettleMs. Resolves with the outcomes.
 */
export async function dropStorm(
  socket: string,
  authority: string,
  path: string,
  opts: { connections: number; concurrency: number; maxSettleMs: number; random?: () => number },
): Promise<DropOutcome[]> {
  const random = opts.random ?? Math.random;
  const outcomes: DropOutcome[] = [];
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < opts.connections; i = next++) {
      const point = DROP_POINTS[i % DROP_POINTS.length];
      outcomes.push(await dropConnection(socket, authority, path, point, Math.floor(random() * (opts.maxSettleMs + 1))));
    }
  };
  await Promise.all(Array.from({ length: opts.concurrency }, worker));
  return outcomes;
}

// Once started, a paused socket reads up to its high-water mark (64 KiB), so this many buffered bytes
// mean the answer's DATA frames are arriving.
const ANSWER_BEGUN_BYTES = 8192;
// Only a berthd that never answers is waited out this long.
const STALL_GIVE_UP_MS = 120_000;

/**
 * A client that stops reading while berthd writes a large answer, half-closes, then reads it all
 * and goes. With the answer just larger than the socket buffer, berthd's last write is still
 * pending when the FIN arrives and completes only once we read: that ordering (the socket ended
 * and finished before the HTTP/2 session saw the end) is what killed berthd when the session ran
 * over a JS stream. `body` is the serialized request message; resolves with the bytes read.
 */
export function stalledHalfClose(socket: string, authority: string, path: string, body: Buffer, stallMs: number): Promise<number> {
  return new Promise((resolve) => {
    const conn = net.connect(socket);
    let received = 0;
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      conn.destroy();
      resolve(received);
    };
    conn.on('error', finish);
    conn.on('close', finish);
    conn.on('end', finish);
    conn.on('connect', () => {
      // Flow-control windows wide open, so only the socket buffer holds the answer back.
      const settings = Buffer.alloc(6);
      settings.writeUInt16BE(0x4, 0); // SETTINGS_INITIAL_WINDOW_SIZE
      settings.writeUInt32BE(0x7fffffff, 2);
      const increment = Buffer.alloc(4);
      increment.writeUInt32BE(0x7fffffff - 65535);
      const message = Buffer.alloc(5 + body.length);
      message.writeUInt32BE(body.length, 1);
      body.copy(message, 5);
      const block = grpcRequestHeaders(path, authority);
      conn.pause();
      conn.write(
        Buffer.concat([PREFACE, frame(0x4, 0, 0, settings), frame(0x8, 0, 0, increment), frame(0x1, 0x4, 1, block), frame(0x0, 0x1, 1, message)]),
      );
      // The half-close waits until the answer has begun to arrive (more than the server's SETTINGS
      // can fill), so it always lands while berthd still has that answer to write, however slowly
      // the call ran; stallMs then lets berthd fill the socket buffers before the FIN.
      const halfClose = () => {
        conn.end();
        setTimeout(() => {
          conn.on('data', (chunk: Buffer) => (received += chunk.length));
          conn.resume();
        }, 50);
      };
      // A paused socket is not read at connect; read(0) starts it up to its high-water mark.
      conn.read(0);
      const waitForAnswer = () => {
        if (done) return;
        if (conn.readableLength >= ANSWER_BEGUN_BYTES) setTimeout(halfClose, stallMs);
        else setTimeout(waitForAnswer, 10);
      };
      waitForAnswer();
    });
    setTimeout(finish, STALL_GIVE_UP_MS).unref();
  });
}

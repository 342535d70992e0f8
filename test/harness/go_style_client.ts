// A gRPC client that behaves on the wire like crictl 1.26 and kubelets before 1.26 (grpc-go of that
// generation): one connection per invocation, the socket path as :authority, a Version call
// first, then the real call, a WINDOW_UPDATE + PING after each answer (grpc-go's BDP estimator),
// and a half-close followed at once by the close when the process exits. Raw HTTP/2, so no client
// library smooths over what berthd must survive.
import hpack from 'hpack.js';
import * as net from 'node:net';
import type * as grpc from '@grpc/grpc-js';
import { imageServiceDefinition, runtimeServiceDefinition } from '../../internal/api/cri';
import { frame, PREFACE } from '../../internal/h2/authority_rewrite';
import { grpcRequestHeaders } from './h2_abuse';

const DATA = 0x0;
const HEADERS = 0x1;
const SETTINGS = 0x4;
const PING = 0x6;
const WINDOW_UPDATE = 0x8;
const END_STREAM = 0x1;
const ACK = 0x1;
const END_HEADERS = 0x4;


function grpcMessage(body: Buffer): Buffer {
  const head = Buffer.alloc(5);
  head.writeUInt32BE(body.length, 1);
  return Buffer.concat([head, body]);
}

export class GoStyleCallError extends Error {
  constructor(
    readonly code: number,
    readonly details: string,
  ) {
    super(`grpc status ${code}: ${details}`);
  }
}

interface Call {
  streamId: number;
  path: string;
  body: Buffer;
}

/** A WINDOW_UPDATE giving back `bytes` on `streamId` (0: the connection). */
function windowUpdate(streamId: number, bytes: number): Buffer {
  const increment = Buffer.alloc(4);
  increment.writeUInt32BE(bytes);
  return frame(WINDOW_UPDATE, 0, streamId, increment);
}

/**
 * Runs `calls` in order on one fresh connection; resolves with each answer's message bytes. With
 * `timeoutMs`, a connection still unanswered by then is dropped and the promise rejects.
 */
function runCalls(socket: string, authority: string, calls: Call[], timeoutMs = 0): Promise<Buffer[]> {
  return new Promise((resolve, reject) => {
    const conn = net.connect(socket);
    const decoder = hpack.decompressor.create({ table: { size: 4096 } });
    const answers: Buffer[] = [];
    let buffered = Buffer.alloc(0);
    let data: Buffer[] = [];
    let next = 0;
    let started = false;
    let settled = false;
    const timer = timeoutMs > 0 ? setTimeout(() => fail(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs) : undefined;
    const fail = (err: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      conn.destroy();
      reject(err);
    };
    const send = () => {
      const call = calls[next];
      const block = grpcRequestHeaders(call.path, authority, [{ name: 'user-agent', value: 'grpc-go/1.50.1' }]);
      conn.write(Buffer.concat([frame(HEADERS, END_HEADERS, call.streamId, block), frame(DATA, END_STREAM, call.streamId, grpcMessage(call.body))]));
    };
    const onHeaders = (flags: number, payload: Buffer) => {
      decoder.write(payload);
      decoder.execute();
      const headers: Record<string, string> = {};
      for (let h = decoder.read(); h !== null; h = decoder.read()) headers[h.name] = h.value;
      if (!(flags & END_STREAM)) return; // response headers; trailers carry the status
      const code = Number(headers['grpc-status'] ?? '2');
      if (code !== 0) return fail(new GoStyleCallError(code, decodeURIComponent(headers['grpc-message'] ?? '')));
      const body = Buffer.concat(data);
      answers.push(body.subarray(5));
      data = [];
      // grpc-go's BDP ping after an answer, then the next call or the exit.
      conn.write(Buffer.concat([windowUpdate(0, body.length || 1), frame(PING, 0, 0, Buffer.alloc(8))]));
      next++;
      if (next < calls.length) return send();
      settled = true;
      clearTimeout(timer);
      conn.end();
      conn.destroy();
      resolve(answers);
    };
    conn.on('error', fail);
    conn.on('close', () => fail(new Error('connection closed before the answer')));
    conn.on('connect', () => conn.write(Buffer.concat([PREFACE, frame(SETTINGS, 0, 0, Buffer.alloc(0))])));
    conn.on('data', (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      while (buffered.length >= 9 && !settled) {
        const length = buffered.readUIntBE(0, 3);
        if (buffered.length < 9 + length) break;
        const type = buffered[3];
        const flags = buffered[4];
        const streamId = buffered.readUInt32BE(5) & 0x7fffffff;
        const payload = buffered.subarray(9, 9 + length);
        buffered = buffered.subarray(9 + length);
        if (type === SETTINGS && !(flags & ACK)) {
          conn.write(frame(SETTINGS, ACK, 0, Buffer.alloc(0)));
          // The first call goes once the server's preface came; a server may send more SETTINGS later.
          if (!started) {
            started = true;
            send();
          }
        } else if (type === HEADERS) {
          onHeaders(flags, payload);
        } else if (type === DATA) {
          data.push(Buffer.from(payload));
          // As grpc-go does (in batches), give the window back, so answers over 64 KiB keep coming.
          if (length > 0) conn.write(Buffer.concat([windowUpdate(0, length), windowUpdate(streamId, length)]));
        }
      }
    });
  });
}

type RuntimeMethod = keyof ReturnType<typeof runtimeServiceDefinition> & string;
type ImageMethod = keyof ReturnType<typeof imageServiceDefinition> & string;
type Methods = Record<string, grpc.MethodDefinition<unknown, unknown>>;

/** `def` on a fresh connection after Version, as crictl calls every method of either service. */
async function callAfterVersion<Res>(
  socket: string,
  def: grpc.MethodDefinition<unknown, unknown>,
  request: unknown,
  authority: string,
  timeoutMs: number,
): Promise<Res> {
  const version = (runtimeServiceDefinition() as unknown as Methods).Version!;
  const answers = await runCalls(socket, authority, [
    { streamId: 1, path: version.path, body: version.requestSerialize({ version: 'v1' }) },
    { streamId: 3, path: def.path, body: def.requestSerialize(request) },
  ], timeoutMs);
  return def.responseDeserialize(answers[1]!) as Res;
}

/**
 * One RuntimeService call the way crictl makes it: a fresh connection, Version first, then
 * `method`; the connection is dropped as soon as the answer is in. `authority` defaults to the
 * socket path, as those clients send it; a `timeoutMs` over 0 bounds the whole exchange.
 */
export function goStyleCall<Res = unknown>(socket: string, method: RuntimeMethod, request: unknown, authority = socket, timeoutMs = 0): Promise<Res> {
  return callAfterVersion<Res>(socket, (runtimeServiceDefinition() as unknown as Methods)[method]!, request, authority, timeoutMs);
}

/** goStyleCall for an ImageService method. */
export function goStyleImageCall<Res = unknown>(socket: string, method: ImageMethod, request: unknown, authority = socket, timeoutMs = 0): Promise<Res> {
  return callAfterVersion<Res>(socket, (imageServiceDefinition() as unknown as Methods)[method]!, request, authority, timeoutMs);
}

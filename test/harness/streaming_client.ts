// Clients for the streaming server, written independently of it so tests check the wire, not our
// own assumptions: SPDY/3.1 through spdy-transport's client (the HTTP upgrade done by hand over
// node:http, streams opened one by one and each awaited, like client-go's SPDY executor), and
// WebSocket through `ws` speaking the k8s channel protocols.
import http from 'node:http';
import https from 'node:https';
import type { Socket } from 'node:net';
import { Duplex } from 'node:stream';
import { connection as spdyConnection, type SpdyConnection, type SpdyStream } from 'spdy-transport';
import WebSocket from 'ws';

export type Transport = 'spdy' | 'websocket';

export interface Status {
  metadata?: Record<string, unknown>;
  status?: string;
  message?: string;
  reason?: string;
  details?: { causes?: { reason?: string; message?: string }[] };
  code?: number;
}

export interface ExecClientOptions {
  transport: Transport;
  /** SPDY: X-Stream-Protocol-Version (default v4.channel.k8s.io); WebSocket: subprotocol (default v5.channel.k8s.io). */
  protocol?: string;
  /** Sent on stdin, which is then closed (SPDY FIN / v5 close signal). */
  stdin?: string | Buffer;
  /** Open stdin but never close it (a session that only ends when the server cuts it). */
  holdStdinOpen?: boolean;
  tty?: boolean;
  stdout?: boolean;
  stderr?: boolean;
  resize?: { width: number; height: number }[];
  /** Called once the session is established (all streams open / socket open). */
  onEstablished?: () => void;
}

export interface ExecResult {
  stdout: string;
  stderr: string;
  /** Raw bytes of the error stream / channel. */
  errorText: string;
  /** errorText parsed as a JSON metav1.Status, when it is one. */
  status?: Status;
}

export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly body: string,
  ) {
    super(`HTTP ${statusCode}: ${body.trim()}`);
  }
}

/** A plain request (no upgrade): status and body. */
export function httpRequest(url: string, method = 'GET'): Promise<{ statusCode: number; body: string }> {
  const mod = url.startsWith('https:') ? https : http;
  return new Promise((resolve, reject) => {
    const req = mod.request(url, { method, rejectUnauthorized: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ statusCode: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

function parseStatus(text: string): Status | undefined {
  try {
    const v = JSON.parse(text) as unknown;
    return typeof v === 'object' && v !== null ? (v as Status) : undefined;
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------------------------- SPDY ---

interface SpdyClient {
  conn: SpdyConnection;
  socket: Socket;
  protocol: string;
}

/** Upgrades `url` to SPDY/3.1 offering `protocols`; rejects with HttpError on a non-101 answer. */
export function spdyUpgrade(url: string, protocols: string[]): Promise<SpdyClient> {
  const mod = url.startsWith('https:') ? https : http;
  return new Promise((resolve, reject) => {
    const req = mod.request(url, {
      method: 'POST',
      rejectUnauthorized: false,
      headers: { Connection: 'Upgrade', Upgrade: 'SPDY/3.1', 'X-Stream-Protocol-Version': protocols },
    });
    req.on('upgrade', (res, socket: Socket, head: Buffer) => {
      if (head.length > 0) socket.unshift(head);
      const conn = spdyConnection.create(socket, { protocol: 'spdy', isServer: false });
      conn.on('error', () => undefined);
      conn.start(3);
      resolve({ conn, socket, protocol: String(res.headers['x-stream-protocol-version'] ?? '') });
    });
    req.on('response', (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => reject(new HttpError(res.statusCode ?? 0, body)));
    });
    req.on('error', reject);
    req.end();
  });
}

type ReplyFrame = { headers: Record<string, string> };

/**
 * Kubernetes' SPDY servers (spdystream's, in the kubelet and in containerd) answer a stream with a
 * SYN_REPLY that carries no headers; spdy-transport, made for HTTP over SPDY, resets such a reply
 * (no :status). The stream takes it, as spdystream's own client (crictl, kubectl) does.
 */
function acceptReplyWithoutStatus(stream: SpdyStream): void {
  const internals = stream as unknown as { _handleResponse(frame: ReplyFrame): void };
  const handle = internals._handleResponse.bind(stream);
  internals._handleResponse = (frame) => handle({ ...frame, headers: { ':status': '200', ...frame.headers } });
}

/** Opens one stream and waits for the server's SYN_REPLY, as spdystream's CreateStream does. */
export function openSpdyStream(conn: SpdyConnection, headers: Record<string, string>): Promise<SpdyStream> {
  return new Promise((resolve, reject) => {
    const stream = conn.request({ method: 'POST', path: '/', headers });
    acceptReplyWithoutStatus(stream);
    stream.on('error', () => undefined);
    stream.on('response', () => resolve(stream));
    stream.on('close', () => reject(new Error(`stream ${JSON.stringify(headers)} closed before the reply`)));
  });
}

const collect = (stream: SpdyStream | undefined): Promise<string> =>
  new Promise((resolve) => {
    if (!stream) return resolve('');
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(Buffer.from(c)));
    stream.on('end', () => resolve(Buffer.concat(chunks).toString()));
    stream.on('close', () => resolve(Buffer.concat(chunks).toString()));
  });

async function spdyExec(url: string, opts: ExecClientOptions): Promise<ExecResult> {
  const tty = opts.tty ?? false;
  const wantStdin = opts.stdin !== undefined || opts.holdStdinOpen === true;
  const wantStdout = opts.stdout ?? true;
  const wantStderr = opts.stderr ?? !tty;
  const client = await spdyUpgrade(url, [opts.protocol ?? 'v4.channel.k8s.io']);
  const closed = new Promise<void>((resolve) => client.socket.once('close', () => resolve()));
  try {
    const error = await openSpdyStream(client.conn, { streamtype: 'error' });
    error.end(); // the client never writes on it
    const errorText = collect(error);
    const stdin = wantStdin ? await openSpdyStream(client.conn, { streamtype: 'stdin' }) : undefined;
    const stdout = wantStdout ? await openSpdyStream(client.conn, { streamtype: 'stdout' }) : undefined;
    const stderr = wantStderr ? await openSpdyStream(client.conn, { streamtype: 'stderr' }) : undefined;
    const resize = tty && opts.protocol !== 'v2.channel.k8s.io' && opts.protocol !== 'channel.k8s.io'
      ? await openSpdyStream(client.conn, { streamtype: 'resize' })
      : undefined;
    const outputs = Promise.all([collect(stdout), collect(stderr), errorText]);
    opts.onEstablished?.();
    for (const size of opts.resize ?? []) resize?.write(JSON.stringify({ Width: size.width, Height: size.height }) + '\n');
    if (stdin && opts.stdin !== undefined) stdin.end(opts.stdin);
    const [out, err, errText] = await Promise.race([outputs, closed.then(() => outputs)]);
    return { stdout: out, stderr: err, errorText: errText, status: parseStatus(errText) };
  } finally {
    client.socket.destroy();
  }
}

// ----------------------------------------------------------------------------- WebSocket ---

const wsUrl = (url: string) => url.replace(/^http/, 'ws');

/** Opens a WebSocket; `onMessage` is attached before the handshake ends so nothing is missed. */
function openWebSocket(url: string, protocols: string[], onMessage: (data: WebSocket.RawData, isBinary: boolean) => void): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(wsUrl(url), protocols, { rejectUnauthorized: false });
    ws.on('message', onMessage);
    ws.once('open', () => resolve(ws));
    ws.once('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => reject(new HttpError(res.statusCode ?? 0, body)));
    });
    ws.once('error', reject);
  });
}

interface ChannelCodec {
  encode(channel: number, payload: Buffer): Buffer | string;
  decode(data: WebSocket.RawData, isBinary: boolean): { channel: number; payload: Buffer };
}

function channelCodec(protocol: string): ChannelCodec {
  const base64 = protocol.includes('base64');
  return {
    encode: (channel, payload) => (base64 ? String.fromCharCode(48 + channel) + payload.toString('base64') : Buffer.concat([Buffer.of(channel), payload])),
    decode: (data, isBinary) => {
      const bytes = Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(new Uint8Array(data));
      if (base64 || !isBinary) return { channel: bytes[0] - 48, payload: Buffer.from(bytes.subarray(1).toString(), 'base64') };
      return { channel: bytes[0], payload: bytes.subarray(1) };
    },
  };
}

async function webSocketExec(url: string, opts: ExecClientOptions): Promise<ExecResult> {
  const protocol = opts.protocol ?? 'v5.channel.k8s.io';
  const codec = channelCodec(protocol);
  const out: Record<number, Buffer[]> = { 1: [], 2: [], 3: [] };
  const ws = await openWebSocket(url, [protocol], (data, isBinary) => {
    const { channel, payload } = codec.decode(data, isBinary);
    out[channel]?.push(payload);
  });
  const done = new Promise<void>((resolve) => (ws.readyState === ws.CLOSED ? resolve() : ws.once('close', () => resolve())));
  opts.onEstablished?.();
  for (const size of opts.resize ?? []) ws.send(codec.encode(4, Buffer.from(JSON.stringify({ Width: size.width, Height: size.height }))));
  if (opts.stdin !== undefined) {
    // In messages of 32 KiB, as client-go sends a piped stdin.
    const stdin = Buffer.from(opts.stdin);
    for (let off = 0; off < stdin.length || off === 0; off += 32 * 1024) ws.send(codec.encode(0, stdin.subarray(off, off + 32 * 1024)));
    if (protocol === 'v5.channel.k8s.io') ws.send(Buffer.of(255, 0));
  }
  await done;
  const text = (ch: number) => Buffer.concat(out[ch]).toString();
  return { stdout: text(1), stderr: text(2), errorText: text(3), status: parseStatus(text(3)) };
}

/** Runs an exec/attach URL to completion and returns what the client saw. */
export function streamExec(url: string, opts: ExecClientOptions): Promise<ExecResult> {
  return opts.transport === 'spdy' ? spdyExec(url, opts) : webSocketExec(url, opts);
}

// -------------------------------------------------------------------------- port-forward ---

export interface ForwardedPort {
  /** Bytes to and from the forwarded port. */
  stream: Duplex;
  /** Everything the server wrote on the error stream/channel, once it is closed. */
  errorText: Promise<string>;
  close(): void;
}

/** Opens a forwarded connection to `port` through a port-forward URL. */
export async function portForward(url: string, port: number, transport: Transport): Promise<ForwardedPort> {
  return transport === 'spdy' ? spdyPortForward(url, port) : webSocketPortForward(url, port);
}

async function spdyPortForward(url: string, port: number): Promise<ForwardedPort> {
  const client = await spdyUpgrade(url, ['portforward.k8s.io']);
  const headers = { port: String(port), requestid: '0' };
  const error = await openSpdyStream(client.conn, { ...headers, streamtype: 'error' });
  error.end();
  const errorText = collect(error);
  const data = await openSpdyStream(client.conn, { ...headers, streamtype: 'data' });
  return { stream: data as unknown as Duplex, errorText, close: () => client.socket.destroy() };
}

async function webSocketPortForward(url: string, port: number): Promise<ForwardedPort> {
  const protocol = 'v4.channel.k8s.io';
  const codec = channelCodec(protocol);
  const seenPortHeader = new Set<number>();
  const errors: Buffer[] = [];
  let ws: WebSocket | undefined;
  const stream = new Duplex({
    read() {},
    write(chunk: Buffer, _enc, callback) {
      ws?.send(codec.encode(0, chunk), (err) => callback(err ?? null));
    },
  });
  ws = await openWebSocket(`${url}?port=${port}`, [protocol], (data, isBinary) => {
    const { channel, payload } = codec.decode(data, isBinary);
    // The first message on each channel is the port, uint16 little-endian.
    if (!seenPortHeader.has(channel)) {
      seenPortHeader.add(channel);
      if (payload.length !== 2 || payload.readUInt16LE(0) !== port) stream.destroy(new Error(`channel ${channel}: bad port header ${payload.toString('hex')}`));
      return;
    }
    if (channel === 0) stream.push(payload);
    else if (channel === 1) errors.push(payload);
  });
  const socket = ws;
  const errorText = new Promise<string>((resolve) => {
    const finish = () => {
      stream.push(null);
      resolve(Buffer.concat(errors).toString());
    };
    if (socket.readyState === socket.CLOSED) finish();
    else socket.once('close', finish);
  });
  return { stream, errorText, close: () => socket.close() };
}

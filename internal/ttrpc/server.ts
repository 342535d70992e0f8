// ttRPC server over a unix socket. Services are plain maps of method name → handler on raw
// payload bytes. A handler is invoked as soon as its frame is parsed, before any await, so a
// peer's requests start in the order they were sent (the events service depends on this).
// A peer that breaks the protocol loses its connection; nothing it sends can take the process down.
import { createServer, type Server, type Socket } from 'node:net';
import { messageOf, resourceExhausted, unimplemented } from '../errdefs/errors';
import { unlinkIfPresent } from '../fs/unlink_if_present';
import type { Logger } from '../log/logger';
import { silentLogger } from '../log/logger';
import { socketPathOf } from './client';
import { encodeFrame, FrameParser, MessageType, type Frame } from './frame';
import { errorResponse, requestCodec, responseCodec } from './messages';

export interface RequestContext {
  service: string;
  method: string;
  metadata: Record<string, string>;
  /** 0 when the caller set no deadline. */
  timeoutNano: bigint;
}

export type MethodHandler = (payload: Buffer, ctx: RequestContext) => Promise<Buffer> | Buffer;

export interface ServerOptions {
  logger?: Logger;
}

export class TtrpcServer {
  private readonly services = new Map<string, Map<string, MethodHandler>>();
  private readonly connections = new Set<Socket>();
  private server: Server | undefined;
  private path: string | undefined;
  private readonly log: Logger;

  constructor(options: ServerOptions = {}) {
    this.log = options.logger ?? silentLogger;
  }

  register(service: string, methods: Record<string, MethodHandler>): void {
    const table = this.services.get(service) ?? new Map<string, MethodHandler>();
    for (const [name, handler] of Object.entries(methods)) table.set(name, handler);
    this.services.set(service, table);
  }

  /**
   * Listens on `address` (unix://path or path), replacing a stale socket file left by a crash.
   * The socket file is mode 0600 from its creation, whatever the process umask.
   */
  async listen(address: string): Promise<void> {
    const path = socketPathOf(address);
    unlinkIfPresent(path);
    const server = createServer((socket) => this.accept(socket));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      const onListening = () => {
        server.removeListener('error', reject);
        resolve();
      };
      // bind(2) creates the file with the umask's mode: a chmod afterwards would leave a window
      // in which anyone could connect and forge task events. Node binds a unix socket
      // synchronously inside listen() (outside cluster workers), so the restrictive umask is in
      // force for that call only and no other code of the process runs under it.
      const previous = process.umask(0o177);
      try {
        server.listen(path, onListening);
      } finally {
        process.umask(previous);
      }
    });
    server.on('error', (err) => this.log.error('ttrpc server error', { path, error: err }));
    this.server = server;
    this.path = path;
  }

  get connectionCount(): number {
    return this.connections.size;
  }

  /** Removes the socket file only: for a process about to exit, whose sockets the kernel closes. */
  removeSocketFile(): void {
    if (this.path) unlinkIfPresent(this.path);
  }

  /** Stops listening, drops every connection and removes the socket file. */
  async close(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const socket of this.connections) socket.destroy();
    this.connections.clear();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
    if (this.path) unlinkIfPresent(this.path);
  }

  private accept(socket: Socket): void {
    this.connections.add(socket);
    const parser = new FrameParser();
    socket.on('close', () => this.connections.delete(socket));
    socket.on('error', (err) => this.log.debug('ttrpc connection error', { error: err }));
    socket.on('data', (chunk: Buffer) => {
      let frames: Frame[];
      try {
        frames = parser.push(chunk);
        for (const frame of frames) this.dispatch(socket, frame);
      } catch (err) {
        this.log.warn('ttrpc: dropping connection after protocol error', { error: err });
        socket.destroy();
      }
    });
  }

  /** Throws on protocol errors (the caller drops the connection); handler errors become statuses. */
  private dispatch(socket: Socket, frame: Frame): void {
    if (frame.type !== MessageType.Request) {
      throw new Error(`ttrpc: unexpected message type ${frame.type} on stream ${frame.streamId}`);
    }
    if (frame.streamId % 2 !== 1) throw new Error(`ttrpc: client stream id ${frame.streamId} is not odd`);
    const request = requestCodec.decode(frame.payload);
    const ctx: RequestContext = {
      service: request.service,
      method: request.method,
      metadata: Object.fromEntries(request.metadata.map((kv) => [kv.key, kv.value])),
      timeoutNano: BigInt(request.timeout_nano),
    };
    const handler = this.services.get(request.service)?.get(request.method);
    let result: Promise<Buffer>;
    if (!handler) {
      result = Promise.reject(unimplemented(`${request.service}/${request.method} is not implemented`));
    } else {
      try {
        result = Promise.resolve(handler(request.payload, ctx));
      } catch (err) {
        result = Promise.reject(err);
      }
    }
    result.then(
      (payload) => this.reply(socket, frame.streamId, responseCodec.encode({ status: { code: 0 }, payload })),
      (err: unknown) => this.reply(socket, frame.streamId, responseCodec.encode(errorResponse(err))),
    );
  }

  private reply(socket: Socket, streamId: number, payload: Buffer): void {
    if (socket.destroyed) return;
    let frame: Buffer;
    try {
      frame = encodeFrame({ streamId, type: MessageType.Response, flags: 0, payload });
    } catch (err) {
      // An oversize answer: the caller still deserves a reply, so send the failure instead.
      this.log.error('ttrpc: reply too large', { streamId, error: err });
      const failure = responseCodec.encode(errorResponse(resourceExhausted(messageOf(err))));
      frame = encodeFrame({ streamId, type: MessageType.Response, flags: 0, payload: failure });
    }
    socket.write(frame);
  }
}

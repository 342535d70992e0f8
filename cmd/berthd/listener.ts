// berthd's accept loop on its unix socket. It listens early in start-up, before the records are
// loaded and the shims reconnected, and holds what it accepts until the gRPC server exists: a client
// that connects meanwhile (a kubelet whose runtime is restarting) waits for its first answer instead
// of being refused and sent into its reconnect backoff (grpc-go: 1 s, then longer), and no call is
// answered before recovery. containerd's socket is also up before its CRI plugin has recovered.
// Each connection goes through routeConnection (the :authority fix of older Go clients) first.
import type * as grpc from '@grpc/grpc-js';
import * as net from 'node:net';
import { unavailable, messageOf } from '../../internal/errdefs/errors';
import { routeConnection } from '../../internal/h2/connection_route';
import type { Logger } from '../../internal/log/logger';
import { OpenStreams } from './open_streams';

type Inject = (socket: net.Socket) => void;

/** What `socket` was given to write and has not passed to the kernel yet: Node's buffer and libuv's queue. */
function unsentBytes(socket: net.Socket): number {
  const handle = (socket as unknown as { _handle?: { writeQueueSize?: number } | null })._handle;
  return socket.writableLength + (handle?.writeQueueSize ?? 0);
}

function destroyHeld(this: net.Socket): void {
  this.destroy();
}

export class EarlyListener {
  /** Connected, no request yet (connection_route.ts): grpc-js does not know them, so close() closes them. */
  private readonly undecided = new Set<net.Socket>();
  /** Every connection accepted and not yet closed, whoever holds it. */
  private readonly open = new Set<net.Socket>();
  /** Handed to grpc-js as the very socket accepted (not through the bridge). */
  private readonly direct = new WeakSet<net.Socket>();
  private readonly streams = new OpenStreams();
  /** Routed before the server existed, in arrival order; handed over by serve(). */
  private held: net.Socket[] | undefined = [];
  private inject: Inject | undefined;

  private constructor(private readonly listener: net.Server) {}

  /** Listens on `path` (created 0600), holding connections until serve(). */
  static listen(path: string, logger: Logger): Promise<EarlyListener> {
    let early: EarlyListener | undefined;
    const listener = net.createServer({ allowHalfOpen: true }, (socket) => early?.accept(socket));
    early = new EarlyListener(listener);
    // The socket is created by bind(2) with the process umask: create it 0600 from the start
    // instead of leaving a window where others could connect. Only startup runs meanwhile.
    const previous = process.umask(0o177);
    return new Promise<EarlyListener>((resolve, reject) => {
      const failed = (err: Error) => {
        process.umask(previous);
        reject(unavailable(`address ${path}: cannot listen: ${messageOf(err)}`, err));
      };
      listener.once('error', failed);
      listener.listen(path, () => {
        process.umask(previous);
        listener.off('error', failed);
        // accept(2) failing (EMFILE, ENFILE: out of fds) is this one client's loss, not the daemon's end.
        listener.on('error', (err) => logger.warn('accepting a connection failed', { error: messageOf(err) }));
        resolve(early!);
      });
    });
  }

  private accept(socket: net.Socket): void {
    this.open.add(socket);
    socket.once('close', () => this.open.delete(socket));
    routeConnection(socket, (routed) => this.handOver(routed), { undecided: this.undecided });
  }

  private handOver(socket: net.Socket): void {
    if (this.inject) this.inject(socket);
    else if (this.held) {
      // Paused by routeConnection: its bytes wait in the kernel until serve().
      socket.on('error', destroyHeld);
      this.held.push(socket);
    } else socket.destroy(); // closed before serving
  }

  /** From now on connections go to `server`, the held ones first, in the order they came. */
  serve(server: grpc.Server, credentials: grpc.ServerCredentials): void {
    const injector = server.createConnectionInjector(credentials);
    this.streams.track(server);
    this.inject = (socket) => {
      // A bridged client's socket stays with the bridge; grpc-js gets the bridge's other end.
      if (this.open.has(socket)) this.direct.add(socket);
      injector.injectConnection(socket);
    };
    const held = this.held ?? [];
    this.held = undefined;
    for (const socket of held) {
      socket.off('error', destroyHeld);
      if (!socket.destroyed) this.inject(socket);
    }
  }

  /**
   * Stops accepting and closes the connections grpc-js does not know (undecided or held: nothing of
   * theirs was answered, and they would hold the listener open). Resolves once every connection the
   * listener accepted is closed; called again, it only waits for that.
   */
  close(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.listener.close(() => resolve()));
    for (const socket of this.undecided) socket.destroy();
    for (const socket of this.held ?? []) socket.destroy();
    this.held = undefined;
    return closed;
  }

  /**
   * Nothing to drain: every open connection either has not sent a request yet or is a client's own
   * socket served by grpc-js, no HTTP/2 stream is open on them (no call running, no answer held back
   * by the client's flow control), and nothing written to them waits in berthd for the kernel. A
   * bridged connection has bytes in the bridge's hands that this cannot see, so it never is quiet.
   */
  get quiet(): boolean {
    // Not counting (before serve(), or grpc-js's server not found) is never quiet.
    if (!this.streams.none) return false;
    for (const socket of this.open) {
      if (this.undecided.has(socket)) continue;
      if (!this.direct.has(socket) || unsentBytes(socket) > 0) return false;
    }
    return true;
  }

  /** Whether a connection it accepted is still open (its close not yet seen). */
  get connected(): boolean {
    return this.open.size > 0;
  }

  /**
   * Destroys every connection still open, for after the server's shutdown: grpc-js 1.14's
   * forceShutdown destroys only the sessions channelz tracks, none with channelz off (berthd's
   * setting), and an open connection would keep close() from ever resolving.
   */
  destroyConnections(): void {
    for (const socket of this.open) socket.destroy();
  }
}

// ttRPC client over a unix socket. Calls are multiplexed on one connection: each gets the next odd
// stream id and its response may arrive in any order. When the connection ends, every pending call
// fails at once with Unavailable, and onClose listeners learn why (the shim manager relies on this
// to notice a dead shim).
import { createConnection, type Socket } from 'node:net';
import { BerthError, deadlineExceeded, unavailable } from '../errdefs/errors';
import { encodeFrame, FrameError, FrameParser, MessageType, type Frame } from './frame';
import { requestCodec, responseCodec, STATUS_OK, statusError } from './messages';

export interface CallOptions {
  /** Client-side deadline; also sent to the server as timeout_nano. */
  timeoutMs?: number;
  /** Sent as ttRPC request metadata (e.g. containerd-namespace-ttrpc). */
  metadata?: Record<string, string>;
}

export interface ClientOptions {
  /** Metadata added to every call (per-call metadata wins on conflicts). */
  metadata?: Record<string, string>;
  connectTimeoutMs?: number;
}

/** Why the connection ended: undefined when close() was called by us. */
export type CloseListener = (reason: Error | undefined) => void;

interface PendingCall {
  service: string;
  method: string;
  resolve(payload: Buffer): void;
  reject(err: Error): void;
  timer?: NodeJS.Timeout;
}

/** `unix:///run/x.sock` or a plain path → the filesystem path. */
export function socketPathOf(address: string): string {
  return address.startsWith('unix://') ? address.slice('unix://'.length) : address;
}

export class TtrpcClient {
  private nextStreamId = 1;
  private readonly pending = new Map<number, PendingCall>();
  private readonly parser = new FrameParser();
  private readonly closeListeners: CloseListener[] = [];
  private closeReason: Error | undefined;
  private isClosed = false;
  /** A write is pending until the next tick (writeSoon). */
  private corked = false;

  private constructor(
    readonly address: string,
    private readonly socket: Socket,
    private readonly options: ClientOptions,
  ) {
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    socket.on('error', (err) => this.shutdown(unavailable(`ttrpc: connection to ${address}: ${err.message}`, err)));
    socket.on('close', () => this.shutdown(unavailable(`ttrpc: connection to ${address} closed`)));
  }

  /** Connects to `address` (unix://path or a path); rejects Unavailable when nobody listens. */
  static connect(address: string, options: ClientOptions = {}): Promise<TtrpcClient> {
    const path = socketPathOf(address);
    return new Promise((resolve, reject) => {
      const socket = createConnection({ path });
      const timer = setTimeout(() => {
        socket.destroy();
        reject(unavailable(`ttrpc: connect to ${address}: timed out`));
      }, options.connectTimeoutMs ?? 10_000);
      socket.once('error', (err) => {
        clearTimeout(timer);
        reject(unavailable(`ttrpc: connect to ${address}: ${err.message}`, err));
      });
      socket.once('connect', () => {
        clearTimeout(timer);
        socket.removeAllListeners('error');
        resolve(new TtrpcClient(address, socket, options));
      });
    });
  }

  get closed(): boolean {
    return this.isClosed;
  }

  /** Called once when the connection ends; immediately if it already has. */
  onClose(listener: CloseListener): void {
    if (this.isClosed) queueMicrotask(() => listener(this.closeReason));
    else this.closeListeners.push(listener);
  }

  call(service: string, method: string, payload: Buffer, opts: CallOptions = {}): Promise<Buffer> {
    if (this.isClosed) {
      return Promise.reject(unavailable(`ttrpc ${service}/${method}: connection to ${this.address} is closed`));
    }
    const streamId = this.nextStreamId;
    // Odd ids only (client-initiated); wrap well before uint32 overflow.
    this.nextStreamId = this.nextStreamId >= 0x7fff_fffd ? 1 : this.nextStreamId + 2;
    const metadata = { ...this.options.metadata, ...opts.metadata };
    const request = requestCodec.encode({
      service,
      method,
      payload,
      timeout_nano: opts.timeoutMs !== undefined ? String(BigInt(Math.ceil(opts.timeoutMs)) * 1_000_000n) : '0',
      metadata: Object.entries(metadata).map(([key, value]) => ({ key, value })),
    });
    let frame: Buffer;
    try {
      frame = encodeFrame({ streamId, type: MessageType.Request, flags: 0, payload: request });
    } catch (err) {
      return Promise.reject(new BerthError('ResourceExhausted', `ttrpc ${service}/${method}: ${(err as Error).message}`));
    }
    return new Promise<Buffer>((resolve, reject) => {
      const call: PendingCall = { service, method, resolve, reject };
      if (opts.timeoutMs !== undefined) {
        call.timer = setTimeout(() => {
          this.pending.delete(streamId);
          reject(deadlineExceeded(`ttrpc ${service}/${method}: no answer within ${opts.timeoutMs}ms`));
        }, opts.timeoutMs);
      }
      this.pending.set(streamId, call);
      this.writeSoon(frame);
    });
  }

  /**
   * Writes `frame` together with every other request made before the pending microtasks and ticks
   * have run (restart recovery asks a pod's shim for several tasks at once): one write system call
   * and one wake-up of the shim for all of them, and no added wait.
   */
  private writeSoon(frame: Buffer): void {
    if (!this.corked) {
      this.corked = true;
      this.socket.cork();
      process.nextTick(() => {
        this.corked = false;
        this.socket.uncork();
      });
    }
    this.socket.write(frame);
  }

  /** Closes the connection; pending calls fail with Unavailable. */
  close(): void {
    this.shutdown(undefined);
    this.socket.destroy();
  }

  private onData(chunk: Buffer): void {
    let frames: Frame[];
    try {
      frames = this.parser.push(chunk);
    } catch (err) {
      const reason = err instanceof FrameError ? err.message : String(err);
      this.shutdown(unavailable(`ttrpc: bad frame from ${this.address}: ${reason}`));
      this.socket.destroy();
      return;
    }
    for (const frame of frames) this.onFrame(frame);
  }

  private onFrame(frame: Frame): void {
    const call = this.pending.get(frame.streamId);
    // A late answer to a call that already timed out, or a stream we never opened: drop it.
    if (!call || frame.type !== MessageType.Response) return;
    this.pending.delete(frame.streamId);
    if (call.timer) clearTimeout(call.timer);
    try {
      const response = responseCodec.decode(frame.payload);
      const code = response.status?.code ?? STATUS_OK;
      if (code !== STATUS_OK) {
        call.reject(statusError(code, response.status?.message ?? '', call.service, call.method));
      } else {
        call.resolve(response.payload);
      }
    } catch (err) {
      call.reject(unavailable(`ttrpc ${call.service}/${call.method}: undecodable response: ${(err as Error).message}`));
    }
  }

  private shutdown(reason: Error | undefined): void {
    if (this.isClosed) return;
    this.isClosed = true;
    this.closeReason = reason;
    const failure = reason ?? unavailable(`ttrpc: connection to ${this.address} closed by client`);
    for (const call of this.pending.values()) {
      if (call.timer) clearTimeout(call.timer);
      call.reject(unavailable(`ttrpc ${call.service}/${call.method}: ${failure.message}`, failure));
    }
    this.pending.clear();
    for (const listener of this.closeListeners.splice(0)) listener(reason);
  }
}

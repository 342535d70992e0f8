// One SPDY stream opened by the client, as a Node Duplex: its readable side is what the client
// sends (ends on FIN), its writable side sends DATA frames (FIN on end()). Once the client resets
// the stream or the connection drops, writes are silently dropped, never errors: a process piping
// into a vanished client must not crash the daemon; the session's abort signal stops it instead.
// What the client sends is buffered up to STREAM_HIGH_WATER_MARK; past it onData reports the
// stream full and the session stops reading the socket until the consumer reads (streamDrained).
import { Duplex } from 'node:stream';
import { MAX_DATA_CHUNK, RstStatus } from './frames';

/** Bytes of client data a stream buffers before the session pauses the socket. */
export const STREAM_HIGH_WATER_MARK = 64 * 1024;

/** What a stream needs from its session (implemented by SpdySession). */
export interface StreamTransport {
  sendReply(streamId: number): Promise<void>;
  sendData(streamId: number, data: Buffer, fin: boolean): Promise<void>;
  sendReset(streamId: number, status: number): void;
  sendWindowUpdate(streamId: number, delta: number): void;
  /** The stream is finished with (closed, reset either way): the session drops it. */
  forget(streamId: number): void;
  /** The consumer read: a stream that was full has room again. */
  streamDrained(streamId: number): void;
}

export interface StreamFlags {
  /** The SYN_STREAM carried FIN: the client sends nothing on it. */
  remoteFin: boolean;
  /** The SYN_STREAM was unidirectional: we may not send on it. */
  unidirectional: boolean;
}

export class SpdyStream extends Duplex {
  private replied: Promise<void> | undefined;
  private aborted = false;
  private remoteDone = false;
  /** Bytes received but not yet acknowledged with WINDOW_UPDATE (the consumer is behind). */
  private unacked = 0;

  constructor(
    private readonly transport: StreamTransport,
    readonly id: number,
    /** Lowercase header names, first value of each, as Go's Header.Get sees them. */
    readonly headers: Readonly<Record<string, string>>,
    private readonly flags: StreamFlags,
  ) {
    super({ allowHalfOpen: true, readableHighWaterMark: STREAM_HIGH_WATER_MARK });
    if (flags.remoteFin) this.finishRemote();
    this.once('close', () => transport.forget(id));
  }

  /** Sends SYN_REPLY: the stream is accepted. Idempotent; writes wait for it. */
  accept(): Promise<void> {
    this.replied ??= this.aborted ? Promise.resolve() : this.transport.sendReply(this.id);
    return this.replied;
  }

  /** Refuses or tears down the stream (RST_STREAM); the session forgets it at once. */
  reset(status: number = RstStatus.CANCEL): void {
    if (this.aborted) return;
    this.aborted = true;
    this.transport.sendReset(this.id, status);
    this.finishRemote();
    this.transport.forget(this.id);
  }

  /** True once the stream was reset by either side or its connection is gone. */
  get isAborted(): boolean {
    return this.aborted;
  }

  // --- called by the session -------------------------------------------------------------

  /** Buffers client data; false once the buffer is past its high-water mark (stop reading). */
  onData(data: Buffer): boolean {
    if (this.remoteDone || this.destroyed) return true; // DATA after FIN or reset: dropped, as spdystream does
    if (data.length === 0) return true;
    if (this.push(data)) {
      this.transport.sendWindowUpdate(this.id, data.length);
      return true;
    }
    this.unacked += data.length;
    return false;
  }

  onRemoteFin(): void {
    this.finishRemote();
  }

  /** The client reset the stream or the connection closed: emits 'reset' once. */
  onAbort(): void {
    // Writes from now on are dropped; ending stays with whoever owns the writable side, so a
    // late write never meets "write after end".
    if (this.aborted) return;
    this.aborted = true;
    this.finishRemote();
    this.emit('reset');
  }

  // --- Duplex implementation ------------------------------------------------------------

  override _read(): void {
    if (this.unacked > 0 && !this.aborted) {
      this.transport.sendWindowUpdate(this.id, this.unacked);
      this.unacked = 0;
    }
    this.transport.streamDrained(this.id);
  }

  override _write(chunk: Buffer, _enc: BufferEncoding, callback: (err?: Error | null) => void): void {
    this.send(chunk, false).then(() => callback(), () => callback());
  }

  override _final(callback: (err?: Error | null) => void): void {
    this.send(Buffer.alloc(0), true).then(() => callback(), () => callback());
  }

  override _destroy(err: Error | null, callback: (err?: Error | null) => void): void {
    // Destroyed before both sides finished (a consumer gave up): tell the client.
    if (!this.aborted && !(this.writableFinished && this.remoteDone)) this.reset(RstStatus.CANCEL);
    callback(err);
  }

  private async send(data: Buffer, fin: boolean): Promise<void> {
    if (this.aborted || this.flags.unidirectional) return;
    await this.accept();
    for (let off = 0; off < data.length || (fin && off === 0); off += MAX_DATA_CHUNK) {
      if (this.aborted) return;
      const piece = data.subarray(off, off + MAX_DATA_CHUNK);
      const last = off + MAX_DATA_CHUNK >= data.length;
      await this.transport.sendData(this.id, piece, fin && last);
      if (data.length === 0) break;
    }
  }

  private finishRemote(): void {
    if (this.remoteDone) return;
    this.remoteDone = true;
    if (!this.destroyed) this.push(null);
  }
}

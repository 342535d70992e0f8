// The k8s channel protocol over one WebSocket: each message starts with a channel number
// (binary protocols: one byte; base64 protocols: one ASCII digit then base64 text). v5 adds a
// close signal, [255, channel], that ends what the client sends on that channel (stdin EOF).
// Channels here are Node streams: readable for what the client sends, writable for what we send.
// What the client sends is buffered per channel up to a high-water mark; past it the socket is
// paused (TCP back-pressure) until the consumer reads, so a client outrunning a slow process, or
// sending on a channel nobody reads yet, costs a bounded amount of memory.
import { Readable, Writable } from 'node:stream';
import type { RawData, WebSocket } from 'ws';

const STREAM_CLOSE_SIGNAL = 255;
/** Bytes a readable channel holds before the socket is paused. */
export const CHANNEL_HIGH_WATER_MARK = 64 * 1024;
/** While paused nothing reads the socket, so a client's hang-up goes unseen: ping it this often. */
const PAUSED_PROBE_MS = 5_000;

export type ChannelEncoding = 'binary' | 'base64';

export interface ChannelOptions {
  encoding: ChannelEncoding;
  /** v5.channel.k8s.io: the client may half-close a channel. */
  supportsClose: boolean;
}

export class WebSocketChannels {
  private readonly readers = new Map<number, Readable>();
  /** Channels whose input has ended (v5 close signal, socket closed): later input is dropped. */
  private readonly ended = new Set<number>();
  /** Channels over their high-water mark: the socket stays paused while any is. */
  private readonly full = new Set<number>();
  private readonly controller = new AbortController();
  private readonly closed: Promise<void>;
  private probe: NodeJS.Timeout | undefined;

  constructor(
    private readonly ws: WebSocket,
    private readonly opts: ChannelOptions,
  ) {
    this.closed = new Promise((resolve) => ws.once('close', () => resolve()));
    ws.on('message', (data, isBinary) => this.onMessage(data, isBinary));
    ws.on('error', () => undefined); // surfaced as 'close'
    ws.once('close', () => {
      clearInterval(this.probe);
      this.controller.abort();
      for (const channel of this.readers.keys()) this.endInput(channel);
    });
  }

  /** Aborted when the WebSocket closes, for whatever reason. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** What the client sends on `channel`; ends on a v5 close signal or when the socket closes. */
  readable(channel: number): Readable {
    let reader = this.readers.get(channel);
    if (!reader) {
      reader = new Readable({ highWaterMark: CHANNEL_HIGH_WATER_MARK, read: () => this.onRead(channel) });
      this.readers.set(channel, reader);
      // A consumer that gives up (destroys the stream) must not keep the socket paused.
      reader.once('close', () => this.endInput(channel));
      if (this.signal.aborted) this.endInput(channel);
    }
    return reader;
  }

  /** A stream whose writes become messages on `channel`; writes after close are dropped. */
  writable(channel: number): Writable {
    return new Writable({
      write: (chunk: Buffer, _enc, callback) => {
        this.send(channel, chunk).then(() => callback());
      },
    });
  }

  /** Sends one message on `channel` (an empty payload is a valid "hello"). */
  send(channel: number, payload: Buffer): Promise<void> {
    if (this.ws.readyState !== this.ws.OPEN) return Promise.resolve();
    const binary = this.opts.encoding === 'binary';
    const frame = binary ? Buffer.concat([Buffer.of(channel), payload]) : Buffer.from(String.fromCharCode(48 + channel) + payload.toString('base64'));
    return new Promise((resolve) => this.ws.send(frame, { binary }, () => resolve()));
  }

  /** Closes the WebSocket normally after everything already sent; resolves once it is closed. */
  close(code = 1000): Promise<void> {
    // Input nobody will read any more is dropped from here: a channel over its bound keeps the
    // socket paused, and the client's closing frame behind it would only be read at ws's 30 s
    // close timeout.
    for (const channel of this.readers.keys()) this.endInput(channel);
    if (this.ws.readyState === this.ws.OPEN || this.ws.readyState === this.ws.CONNECTING) this.ws.close(code);
    return this.closed;
  }

  /** Cuts the connection without a closing handshake (server stop). */
  terminate(): void {
    this.ws.terminate();
  }

  /** Ends a channel's input once; anything the client sends on it afterwards is dropped. */
  private endInput(channel: number): void {
    if (this.ended.has(channel)) return;
    this.ended.add(channel);
    const reader = this.readers.get(channel);
    if (reader && !reader.destroyed) reader.push(null);
    this.onRead(channel);
  }

  private onRead(channel: number): void {
    if (!this.full.delete(channel) || this.full.size > 0) return;
    clearInterval(this.probe);
    this.probe = undefined;
    if (this.ws.readyState === this.ws.OPEN) this.ws.resume();
  }

  private pause(channel: number): void {
    this.full.add(channel);
    if (this.probe) return;
    this.ws.pause();
    // A ping to a reset connection fails, and the socket closes.
    this.probe = setInterval(() => {
      if (this.ws.readyState === this.ws.OPEN && this.ws.bufferedAmount === 0) this.ws.ping();
    }, PAUSED_PROBE_MS);
    this.probe.unref();
  }

  private onMessage(data: RawData, isBinary: boolean): void {
    const bytes = Array.isArray(data) ? Buffer.concat(data) : Buffer.isBuffer(data) ? data : Buffer.from(new Uint8Array(data));
    if (bytes.length === 0) return;
    if (this.opts.supportsClose && bytes[0] === STREAM_CLOSE_SIGNAL) {
      if (bytes.length === 2) this.endInput(bytes[1]);
      return;
    }
    let channel = bytes[0];
    let payload = bytes.subarray(1);
    if (this.opts.encoding === 'base64' || !isBinary) {
      channel -= 48;
      payload = Buffer.from(payload.toString('latin1'), 'base64');
    }
    const reader = this.readers.get(channel);
    if (!reader || this.ended.has(channel) || payload.length === 0) return;
    if (!reader.push(payload)) this.pause(channel);
  }
}

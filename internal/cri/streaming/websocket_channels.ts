// The k8s channel protocol over one WebSocket: each message starts with a channel number
// (binary protocols: one byte; base64 protocols: one ASCII digit then base64 text). v5 adds a
// close signal, [255, channel], that ends what the client sends on that channel (stdin EOF).
// Channels here are Node streams: readable for what the client sends, writable for what we send.
import { Readable, Writable } from 'node:stream';
import type { RawData, WebSocket } from 'ws';

const STREAM_CLOSE_SIGNAL = 255;

export type ChannelEncoding = 'binary' | 'base64';

export interface ChannelOptions {
  encoding: ChannelEncoding;
  /** v5.channel.k8s.io: the client may half-close a channel. */
  supportsClose: boolean;
}

export class WebSocketChannels {
  private readonly readers = new Map<number, Readable>();
  private readonly controller = new AbortController();
  private readonly closed: Promise<void>;

  constructor(
    private readonly ws: WebSocket,
    private readonly opts: ChannelOptions,
  ) {
    this.closed = new Promise((resolve) => ws.once('close', () => resolve()));
    ws.on('message', (data, isBinary) => this.onMessage(data, isBinary));
    ws.on('error', () => undefined); // surfaced as 'close'
    ws.once('close', () => {
      this.controller.abort();
      for (const reader of this.readers.values()) reader.push(null);
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
      reader = new Readable({ read() {} });
      if (this.signal.aborted) reader.push(null);
      this.readers.set(channel, reader);
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
    if (this.ws.readyState === this.ws.OPEN || this.ws.readyState === this.ws.CONNECTING) this.ws.close(code);
    return this.closed;
  }

  /** Cuts the connection without a closing handshake (server stop). */
  terminate(): void {
    this.ws.terminate();
  }

  private onMessage(data: RawData, isBinary: boolean): void {
    const bytes = Array.isArray(data) ? Buffer.concat(data) : Buffer.isBuffer(data) ? data : Buffer.from(new Uint8Array(data));
    if (bytes.length === 0) return;
    if (this.opts.supportsClose && bytes[0] === STREAM_CLOSE_SIGNAL) {
      if (bytes.length === 2) this.readers.get(bytes[1])?.push(null);
      return;
    }
    let channel = bytes[0];
    let payload = bytes.subarray(1);
    if (this.opts.encoding === 'base64' || !isBinary) {
      channel -= 48;
      payload = Buffer.from(payload.toString('latin1'), 'base64');
    }
    const reader = this.readers.get(channel);
    if (reader && !reader.readableEnded && payload.length > 0) reader.push(payload);
  }
}

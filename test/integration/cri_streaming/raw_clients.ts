// Raw-frame clients for attack and stress tests: they do the HTTP upgrade by hand on a plain TCP
// socket and then write whatever frames a test wants, well-formed or not, so a test controls
// exactly what berthd sees (floods, bombs, half-made streams, resets at any byte). Written from
// the SPDY/3 and RFC 6455 wire formats, independently of the server's code.
import { randomBytes } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import { constants, createDeflate, type Deflate } from 'node:zlib';
import spdyDictionaries from 'spdy-transport/lib/spdy-transport/protocol/spdy/dictionary';

/** Opens `url` and sends an upgrade request; resolves with the socket once the 101 is read. */
export function rawUpgrade(url: string, method: 'GET' | 'POST', headers: Record<string, string>): Promise<{ socket: Socket; head: Buffer }> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: u.hostname, port: Number(u.port) });
    let buffered = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      const end = buffered.indexOf('\r\n\r\n');
      if (end < 0) return;
      socket.removeListener('data', onData);
      socket.pause();
      const status = buffered.subarray(0, buffered.indexOf('\r\n')).toString();
      if (!/^HTTP\/1\.1 101 /.test(status)) {
        socket.destroy();
        return reject(new Error(`upgrade refused: ${status}`));
      }
      resolve({ socket, head: buffered.subarray(end + 4) });
    };
    socket.on('data', onData);
    socket.once('error', reject);
    socket.once('connect', () => {
      const lines = [`${method} ${u.pathname}${u.search} HTTP/1.1`, `Host: ${u.host}`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
      socket.write(lines.join('\r\n') + '\r\n\r\n');
    });
  });
}

// ---------------------------------------------------------------------------------- SPDY ---

const SPDY3_DICTIONARY: Buffer = spdyDictionaries[3];
export const SYN_STREAM = 1;
export const RST_STREAM = 3;
export const PING = 6;
export const GOAWAY = 7;
export const FIN = 1;

export function controlFrame(type: number, flags: number, body: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt16BE(0x8003, 0);
  head.writeUInt16BE(type, 2);
  head[4] = flags;
  head.writeUIntBE(body.length, 5, 3);
  return Buffer.concat([head, body]);
}

export function dataFrame(streamId: number, flags: number, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(streamId, 0);
  head[4] = flags;
  head.writeUIntBE(data.length, 5, 3);
  return Buffer.concat([head, data]);
}

/** Big-endian 32-bit words. */
export const words = (...ws: number[]) => {
  const b = Buffer.alloc(ws.length * 4);
  ws.forEach((w, i) => b.writeUInt32BE(w >>> 0, i * 4));
  return b;
};

export const pingFrame = (id: number) => controlFrame(PING, 0, words(id));
export const rstFrame = (streamId: number, status = 5) => controlFrame(RST_STREAM, 0, words(streamId, status));

export function headerBlock(headers: Record<string, string>): Buffer {
  const entries = Object.entries(headers);
  return Buffer.concat([words(entries.length), ...entries.flatMap(([k, v]) => [words(Buffer.byteLength(k)), Buffer.from(k), words(Buffer.byteLength(v)), Buffer.from(v)])]);
}

/** A SPDY/3.1 connection driven frame by frame; what the server sends is collected as frames. */
export class RawSpdy {
  private readonly deflate: Deflate = createDeflate({ dictionary: SPDY3_DICTIONARY });
  private inbound = Buffer.alloc(0);
  /** Control frames received: type and body. */
  readonly controls: { type: number; body: Buffer }[] = [];
  /** Data received, by stream. */
  readonly data = new Map<number, Buffer[]>();
  readonly closed: Promise<void>;
  private waiters: (() => void)[] = [];

  private constructor(readonly socket: Socket, head: Buffer) {
    socket.on('error', () => undefined);
    this.closed = new Promise((resolve) => socket.once('close', () => resolve()));
    socket.on('data', (chunk: Buffer) => this.onBytes(chunk));
    if (head.length > 0) this.onBytes(head);
  }

  static async open(url: string, protocol: string): Promise<RawSpdy> {
    const { socket, head } = await rawUpgrade(url, 'POST', { Connection: 'Upgrade', Upgrade: 'SPDY/3.1', 'X-Stream-Protocol-Version': protocol });
    const conn = new RawSpdy(socket, head);
    socket.resume();
    return conn;
  }

  /** Stops reading what the server sends (a client that never reads). */
  stopReading(): void {
    this.socket.pause();
  }

  /** Compresses one header block in the connection's zlib context (sync flush). */
  compress(block: Buffer | Buffer[]): Promise<Buffer> {
    const out: Buffer[] = [];
    const onData = (c: Buffer) => out.push(c);
    this.deflate.on('data', onData);
    for (const b of Array.isArray(block) ? block : [block]) this.deflate.write(b);
    return new Promise((resolve) =>
      this.deflate.flush(constants.Z_SYNC_FLUSH, () => {
        this.deflate.removeListener('data', onData);
        resolve(Buffer.concat(out));
      }),
    );
  }

  async synStream(id: number, headers: Record<string, string>, flags = 0): Promise<Buffer> {
    const compressed = await this.compress(headerBlock(headers));
    return controlFrame(SYN_STREAM, flags, Buffer.concat([words(id, 0), Buffer.alloc(2), compressed]));
  }

  /** Writes and resolves once the socket took the bytes (or closed). */
  write(bytes: Buffer): Promise<void> {
    return new Promise((resolve) => {
      if (this.socket.destroyed) return resolve();
      if (this.socket.write(bytes)) return resolve();
      const done = () => {
        this.socket.removeListener('drain', done);
        this.socket.removeListener('close', done);
        resolve();
      };
      this.socket.once('drain', done);
      this.socket.once('close', done);
    });
  }

  /** Resolves when `predicate` holds for what was received (re-checked on every frame), or rejects when the socket closes first. */
  until(predicate: () => boolean, what: string): Promise<void> {
    return new Promise((resolve, reject) => {
      const check = () => {
        if (!predicate()) return false;
        resolve();
        return true;
      };
      if (check()) return;
      this.waiters.push(() => void check());
      void this.closed.then(() => (check() ? undefined : reject(new Error(`connection closed before ${what}`))));
    });
  }

  /** A PING round trip: everything sent before it has been handled. */
  async roundTrip(id: number): Promise<void> {
    await this.write(pingFrame(id));
    await this.until(() => this.controls.some((c) => c.type === PING && c.body.readUInt32BE(0) === id), `the echo of ping ${id}`);
  }

  dataOf(streamId: number): string {
    return Buffer.concat(this.data.get(streamId) ?? []).toString();
  }

  destroy(): void {
    this.deflate.close();
    this.socket.destroy();
  }

  private onBytes(chunk: Buffer): void {
    this.inbound = Buffer.concat([this.inbound, chunk]);
    while (this.inbound.length >= 8) {
      const length = this.inbound.readUIntBE(5, 3);
      if (this.inbound.length < 8 + length) break;
      const frame = this.inbound.subarray(0, 8 + length);
      this.inbound = this.inbound.subarray(8 + length);
      if (frame[0] & 0x80) this.controls.push({ type: frame.readUInt16BE(2), body: frame.subarray(8) });
      else {
        const id = frame.readUInt32BE(0) & 0x7fffffff;
        const list = this.data.get(id) ?? [];
        list.push(frame.subarray(8));
        this.data.set(id, list);
      }
    }
    for (const w of this.waiters) w();
  }
}

// ----------------------------------------------------------------------------- WebSocket ---

/** A WebSocket client writing raw (masked) frames; server messages are decoded minimally. */
export class RawWebSocket {
  private inbound = Buffer.alloc(0);
  /** Binary/text message payloads received (fragments are not reassembled: the server sends none). */
  readonly messages: Buffer[] = [];
  /** The close code the server sent, if it did. */
  closeCode: number | undefined;
  readonly closed: Promise<void>;
  private waiters: (() => void)[] = [];

  private constructor(readonly socket: Socket, head: Buffer) {
    socket.on('error', () => undefined);
    this.closed = new Promise((resolve) => socket.once('close', () => resolve()));
    socket.on('data', (chunk: Buffer) => this.onBytes(chunk));
    if (head.length > 0) this.onBytes(head);
  }

  static async open(url: string, protocol: string): Promise<RawWebSocket> {
    const { socket, head } = await rawUpgrade(url, 'GET', {
      Connection: 'Upgrade',
      Upgrade: 'websocket',
      'Sec-WebSocket-Version': '13',
      'Sec-WebSocket-Key': randomBytes(16).toString('base64'),
      'Sec-WebSocket-Protocol': protocol,
    });
    const ws = new RawWebSocket(socket, head);
    socket.resume();
    return ws;
  }

  /** One binary message: the channel byte, then the payload. */
  send(channel: number, payload: Buffer | string = Buffer.alloc(0)): void {
    this.sendFrame(0x2, Buffer.concat([Buffer.of(channel), Buffer.from(payload)]));
  }

  sendFrame(opcode: number, payload: Buffer): void {
    const mask = randomBytes(4);
    let head: Buffer;
    if (payload.length < 126) head = Buffer.of(0x80 | opcode, 0x80 | payload.length);
    else if (payload.length < 65536) {
      head = Buffer.alloc(4);
      head[0] = 0x80 | opcode;
      head[1] = 0x80 | 126;
      head.writeUInt16BE(payload.length, 2);
    } else {
      head = Buffer.alloc(10);
      head[0] = 0x80 | opcode;
      head[1] = 0x80 | 127;
      head.writeBigUInt64BE(BigInt(payload.length), 2);
    }
    const masked = Buffer.from(payload);
    for (let i = 0; i < masked.length; i++) masked[i] ^= mask[i & 3];
    this.socket.write(Buffer.concat([head, mask, masked]));
  }

  /** Resolves when `predicate` holds for what was received, or rejects when the socket closes first. */
  until(predicate: () => boolean, what: string): Promise<void> {
    return new Promise((resolve, reject) => {
      const check = () => {
        if (!predicate()) return false;
        resolve();
        return true;
      };
      if (check()) return;
      this.waiters.push(() => void check());
      void this.closed.then(() => (check() ? undefined : reject(new Error(`connection closed before ${what}`))));
    });
  }

  text(channel: number): string {
    return Buffer.concat(this.messages.filter((m) => m[0] === channel).map((m) => m.subarray(1))).toString();
  }

  private onBytes(chunk: Buffer): void {
    this.inbound = Buffer.concat([this.inbound, chunk]);
    for (;;) {
      if (this.inbound.length < 2) return;
      let length = this.inbound[1] & 0x7f;
      let offset = 2;
      if (length === 126) {
        if (this.inbound.length < 4) return;
        length = this.inbound.readUInt16BE(2);
        offset = 4;
      } else if (length === 127) {
        if (this.inbound.length < 10) return;
        length = Number(this.inbound.readBigUInt64BE(2));
        offset = 10;
      }
      if (this.inbound.length < offset + length) return;
      const opcode = this.inbound[0] & 0x0f;
      const payload = this.inbound.subarray(offset, offset + length);
      this.inbound = this.inbound.subarray(offset + length);
      if (opcode === 0x8) {
        this.closeCode = payload.length >= 2 ? payload.readUInt16BE(0) : 1005;
        // Answer the closing handshake, as any client does; the server then closes the TCP connection.
        if (!this.socket.destroyed) this.sendFrame(0x8, payload.subarray(0, 2));
      }
      else if (opcode === 0x1 || opcode === 0x2) this.messages.push(payload);
      for (const w of this.waiters) w();
    }
  }
}

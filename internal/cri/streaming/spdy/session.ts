// The server side of a SPDY/3.1 connection on an upgraded HTTP socket, shaped after what
// kubelet's peer (moby/spdystream, used by client-go) expects: the client opens streams with only
// its own headers (no :method/:path), the server answers each with SYN_REPLY before any DATA, and
// neither side enforces flow-control windows. We still acknowledge received bytes with
// WINDOW_UPDATE so clients that do count windows (spdy-transport) never stall.
//
// Everything a client can make us hold is bounded (compare spdystream's GHSA-pc3f-x583-g7j2):
// frame size and header blocks (frames.ts, header_codec.ts), open streams per session (more are
// refused), and three queues that make us stop reading the socket while they are over their
// mark: frames read but not yet handled, frames queued for writing (PING echoes, RSTs and
// WINDOW_UPDATEs to a client that does not read), and each stream's unread data. Reset and
// refused streams are dropped at once.
import { EventEmitter } from 'node:events';
import type { Socket } from 'node:net';
import type { Logger } from '../../../log/logger';
import { messageOf } from '../../../errdefs/errors';
import {
  FLAG_FIN,
  FLAG_UNIDIRECTIONAL,
  FrameReader,
  FrameType,
  GoawayStatus,
  RstStatus,
  SPDY_VERSION,
  controlFrame,
  dataFrame,
  decodeHeaderBlock,
  encodeHeaderBlock,
  protocolError,
  wordsBody,
  type Frame,
} from './frames';
import { HeaderCompressor, HeaderDecompressor } from './header_codec';
import { SpdyStream, type StreamTransport } from './stream';

/** How long a closing session waits for the client to hang up before cutting the socket. */
const CLOSE_GRACE_MS = 5_000;
/** Streams open at once on one session; exec needs five, a port-forward two per connection. */
export const MAX_STREAMS_PER_SESSION = 256;
/** Frames read but not handled yet (header blocks inflate asynchronously) before reads pause. */
const INBOUND_FRAMES_HIGH_WATER = 64;
/** Frames waiting to be written before reads pause: the client's replies pile up otherwise. */
const OUTBOUND_FRAMES_HIGH_WATER = 64;
/**
 * While reads are paused a client's hang-up goes unseen (nothing reads the socket), so a session
 * whose process writes nothing would outlive its client: we PING it this often, and a write to a
 * reset connection fails and closes the session.
 */
const PAUSED_PROBE_MS = 5_000;

export interface SpdySessionEvents {
  stream: [SpdyStream];
  close: [];
}

export class SpdySession extends EventEmitter<SpdySessionEvents> implements StreamTransport {
  private readonly reader = new FrameReader();
  private readonly compressor = new HeaderCompressor();
  private readonly decompressor = new HeaderDecompressor();
  private readonly streams = new Map<number, SpdyStream>();
  /** Frames read and not yet handled, in arrival order. */
  private readonly inbound: Frame[] = [];
  private handling = false;
  private outbound: Promise<void> = Promise.resolve();
  /** Frames enqueued and not yet taken by the socket. */
  private queuedOut = 0;
  /** Streams whose unread data is past their high-water mark. */
  private readonly fullStreams = new Set<number>();
  private paused = false;
  private probe: NodeJS.Timeout | undefined;
  /** Our PINGs have even IDs (the client's are odd). */
  private lastPingId = 0;
  private lastRemoteId = 0;
  private goneAway = false;
  /** A protocol error: nothing more is read; the connection is being cut. */
  private failed = false;
  private closed = false;

  constructor(
    private readonly socket: Socket,
    head: Buffer,
    private readonly logger: Logger,
  ) {
    super();
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => this.onBytes(chunk));
    socket.on('error', (err) => this.logger.debug('spdy socket error', { error: err.message }));
    socket.once('close', () => this.onSocketClosed());
    // The client hung up its side: finish ours once everything queued has been written.
    // then(f, f), not finally(f): the queued entry rejects when the session closed before it ran,
    // and finally() would hand that rejection on, unhandled.
    const endOurs = () => void socket.end();
    socket.once('end', () => void this.enqueue(() => Buffer.alloc(0)).then(endOurs, endOurs));
    if (head.length > 0) this.onBytes(head);
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /**
   * Ends the session politely: GOAWAY after every frame already queued, then the client hangs up
   * (client-go closes once its streams have ended). A client that does not is cut after a grace
   * period. We do not half-close first: some clients drop frames still being parsed at EOF.
   * Resolves once closed.
   */
  close(): Promise<void> {
    if (this.closed) return Promise.resolve();
    const closed = new Promise<void>((resolve) => this.once('close', resolve));
    this.goAway(GoawayStatus.OK);
    const timer = setTimeout(() => this.socket.destroy(), CLOSE_GRACE_MS);
    timer.unref();
    this.socket.once('close', () => clearTimeout(timer));
    return closed;
  }

  /** Cuts the connection now (server stop, protocol error). */
  destroy(): void {
    this.socket.destroy();
  }

  // --- StreamTransport -------------------------------------------------------------------

  sendReply(streamId: number): Promise<void> {
    // :status/:version mean nothing to spdystream but clients that mirror HTTP require them.
    const block = encodeHeaderBlock({ ':status': '200', ':version': 'HTTP/1.1' });
    return this.enqueue(async () => {
      const compressed = await this.compressor.compress(block);
      return controlFrame(FrameType.SYN_REPLY, 0, Buffer.concat([wordsBody(streamId), compressed]));
    });
  }

  sendData(streamId: number, data: Buffer, fin: boolean): Promise<void> {
    return this.enqueue(() => dataFrame(streamId, fin ? FLAG_FIN : 0, data));
  }

  sendReset(streamId: number, status: number): void {
    void this.enqueue(() => controlFrame(FrameType.RST_STREAM, 0, wordsBody(streamId, status))).catch(() => undefined);
  }

  sendWindowUpdate(streamId: number, delta: number): void {
    // Stream window and, for SPDY/3.1 peers, the session window.
    void this.enqueue(() =>
      Buffer.concat([
        controlFrame(FrameType.WINDOW_UPDATE, 0, wordsBody(streamId, delta)),
        controlFrame(FrameType.WINDOW_UPDATE, 0, wordsBody(0, delta)),
      ]),
    ).catch(() => undefined);
  }

  forget(streamId: number): void {
    this.streams.delete(streamId);
    if (this.fullStreams.delete(streamId)) this.updateFlow();
  }

  streamDrained(streamId: number): void {
    if (this.fullStreams.delete(streamId)) this.updateFlow();
  }

  /** Reads the socket only while every queue the client fills is under its mark. */
  private updateFlow(): void {
    const pause = this.inbound.length >= INBOUND_FRAMES_HIGH_WATER || this.queuedOut >= OUTBOUND_FRAMES_HIGH_WATER || this.fullStreams.size > 0;
    if (pause === this.paused || this.closed) return;
    this.paused = pause;
    clearInterval(this.probe);
    this.probe = undefined;
    if (!pause) {
      this.socket.resume();
      return;
    }
    this.socket.pause();
    this.probe = setInterval(() => {
      // Only when nothing is queued: a client that does not read gets no pile of PINGs either.
      if (this.queuedOut > 0) return;
      this.lastPingId = (this.lastPingId + 2) & 0x7ffffffe;
      const id = this.lastPingId;
      void this.enqueue(() => controlFrame(FrameType.PING, 0, wordsBody(id))).catch(() => undefined);
    }, PAUSED_PROBE_MS);
    this.probe.unref();
  }

  // --- outbound ---------------------------------------------------------------------------

  /** Queues one frame (built in order, possibly async) and resolves once the socket took it. */
  private enqueue(build: () => Buffer | Promise<Buffer>): Promise<void> {
    this.queuedOut++;
    this.updateFlow();
    const sent = this.outbound.then(async () => {
      if (this.closed || this.socket.destroyed) throw new Error('spdy session closed');
      const bytes = await build();
      if (bytes.length === 0 || this.socket.write(bytes)) return;
      await new Promise<void>((resolve) => {
        const done = () => {
          this.socket.removeListener('drain', done);
          this.socket.removeListener('close', done);
          resolve();
        };
        this.socket.once('drain', done);
        this.socket.once('close', done);
      });
    });
    this.outbound = sent.catch(() => undefined).finally(() => {
      this.queuedOut--;
      this.updateFlow();
    });
    return sent;
  }

  private goAway(status: number): void {
    if (this.goneAway) return;
    this.goneAway = true;
    void this.enqueue(() => controlFrame(FrameType.GOAWAY, 0, wordsBody(this.lastRemoteId, status))).catch(() => undefined);
  }

  // --- inbound ----------------------------------------------------------------------------

  private onBytes(chunk: Buffer): void {
    if (this.closed || this.failed) return;
    try {
      this.inbound.push(...this.reader.push(chunk));
    } catch (err) {
      this.failProtocol(err);
      return;
    }
    this.updateFlow();
    void this.handleInbound();
  }

  /** Handles queued frames one at a time: header blocks inflate asynchronously, in arrival order. */
  private async handleInbound(): Promise<void> {
    if (this.handling) return;
    this.handling = true;
    try {
      for (let frame = this.inbound.shift(); frame && !this.closed && !this.failed; frame = this.inbound.shift()) {
        const handled = this.handleFrame(frame);
        if (handled) await handled;
        this.updateFlow();
      }
    } catch (err) {
      this.failProtocol(err);
    } finally {
      this.handling = false;
    }
  }

  private failProtocol(err: unknown): void {
    if (this.closed || this.failed) return;
    this.failed = true;
    this.inbound.length = 0;
    this.logger.warn('spdy protocol error; closing the connection', { error: messageOf(err) });
    this.goAway(GoawayStatus.PROTOCOL_ERROR);
    const destroy = () => void this.socket.destroy();
    void this.enqueue(() => Buffer.alloc(0)).then(destroy, destroy);
    // A client that does not read never lets the GOAWAY out: cut it regardless.
    setTimeout(() => this.socket.destroy(), CLOSE_GRACE_MS).unref();
  }

  /** Handles one frame; returns a promise only when it must wait (a header block to inflate). */
  private handleFrame(frame: Frame): Promise<void> | undefined {
    if (!frame.control) return this.handleData(frame.streamId, frame.flags, frame.data);
    if (frame.version !== SPDY_VERSION) throw protocolError(`unsupported SPDY version ${frame.version}`);
    const body = frame.body;
    switch (frame.type) {
      case FrameType.SYN_STREAM:
        return this.handleSynStream(frame.flags, body);
      case FrameType.SYN_REPLY:
      case FrameType.HEADERS:
        // Not expected from a client, but the block must pass through the shared zlib context.
        if (body.length < 4) throw protocolError('short HEADERS/SYN_REPLY frame');
        return this.decompressor.decompress(body.subarray(4)).then(() => undefined);
      case FrameType.RST_STREAM:
        if (body.length < 8) throw protocolError('short RST_STREAM frame');
        this.abortStream(body.readUInt32BE(0) & 0x7fffffff);
        return;
      case FrameType.PING:
        // Client pings have odd IDs; echo them. Even IDs would be answers to ours (we send none).
        if (body.length >= 4 && body.readUInt32BE(0) % 2 === 1) {
          void this.enqueue(() => controlFrame(FrameType.PING, 0, body.subarray(0, 4))).catch(() => undefined);
        }
        return;
      case FrameType.GOAWAY:
        this.goneAway = true; // the client opens no more streams; existing ones run to the end
        return;
      default:
        return; // SETTINGS, WINDOW_UPDATE, NOOP: we keep no windows (see the file comment)
    }
  }

  private async handleSynStream(flags: number, body: Buffer): Promise<void> {
    if (body.length < 10) throw protocolError('short SYN_STREAM frame');
    const id = body.readUInt32BE(0) & 0x7fffffff;
    const headers = decodeHeaderBlock(await this.decompressor.decompress(body.subarray(10)));
    if (id === 0 || id % 2 === 0 || id <= this.lastRemoteId) {
      this.sendReset(id, RstStatus.PROTOCOL_ERROR);
      return;
    }
    this.lastRemoteId = id;
    if (this.goneAway) {
      this.sendReset(id, RstStatus.REFUSED_STREAM);
      return;
    }
    if (this.streams.size >= MAX_STREAMS_PER_SESSION) {
      this.sendReset(id, RstStatus.REFUSED_STREAM);
      return;
    }
    const stream = new SpdyStream(this, id, headers, {
      remoteFin: (flags & FLAG_FIN) !== 0,
      unidirectional: (flags & FLAG_UNIDIRECTIONAL) !== 0,
    });
    this.streams.set(id, stream);
    if (this.listenerCount('stream') === 0) stream.reset(RstStatus.REFUSED_STREAM);
    else this.emit('stream', stream);
  }

  private handleData(streamId: number, flags: number, data: Buffer): undefined {
    const stream = this.streams.get(streamId);
    if (!stream) {
      if (streamId <= this.lastRemoteId) return; // a stream we already finished with
      this.sendReset(streamId, RstStatus.INVALID_STREAM);
      return;
    }
    if (!stream.onData(data)) this.fullStreams.add(streamId);
    if (flags & FLAG_FIN) stream.onRemoteFin();
  }

  /** The client reset a stream: it is done, whoever still holds it. */
  private abortStream(streamId: number): void {
    const stream = this.streams.get(streamId);
    if (!stream) return;
    this.forget(streamId);
    stream.onAbort();
  }

  private onSocketClosed(): void {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.probe);
    this.inbound.length = 0;
    this.fullStreams.clear();
    for (const stream of this.streams.values()) stream.onAbort();
    this.streams.clear();
    this.compressor.close();
    this.decompressor.close();
    this.emit('close');
  }
}

// ttRPC framing: a 10-byte header (uint32 BE payload length, uint32 BE stream id, uint8 type,
// uint8 flags) followed by the payload. The parser is incremental because a unix socket hands us
// arbitrary chunks, and strict because a peer that breaks framing cannot be resynchronised.

export const HEADER_LENGTH = 10;
/** Same ceiling as containerd/ttrpc: a larger frame is a protocol error. */
export const MAX_PAYLOAD = 4 << 20;

export const MessageType = {
  Request: 1,
  Response: 2,
  Data: 3,
} as const;
export type MessageType = (typeof MessageType)[keyof typeof MessageType];

export interface Frame {
  streamId: number;
  type: MessageType;
  flags: number;
  payload: Buffer;
}

export class FrameError extends Error {
  override readonly name = 'FrameError';
}

export function encodeFrame(frame: Frame): Buffer {
  if (frame.payload.length > MAX_PAYLOAD) {
    throw new FrameError(`ttrpc: payload of ${frame.payload.length} bytes exceeds ${MAX_PAYLOAD}`);
  }
  const header = Buffer.allocUnsafe(HEADER_LENGTH);
  header.writeUInt32BE(frame.payload.length, 0);
  header.writeUInt32BE(frame.streamId >>> 0, 4);
  header.writeUInt8(frame.type, 8);
  header.writeUInt8(frame.flags & 0xff, 9);
  return Buffer.concat([header, frame.payload]);
}

function isMessageType(n: number): n is MessageType {
  return n === MessageType.Request || n === MessageType.Response || n === MessageType.Data;
}

/** Accumulates socket chunks and yields whole frames; throws FrameError on broken framing. */
export class FrameParser {
  private chunks: Buffer[] = [];
  private buffered = 0;

  push(chunk: Buffer): Frame[] {
    this.chunks.push(chunk);
    this.buffered += chunk.length;
    const frames: Frame[] = [];
    while (this.buffered >= HEADER_LENGTH) {
      const head = this.peek(HEADER_LENGTH);
      const length = head.readUInt32BE(0);
      const type = head.readUInt8(8);
      // Validate before waiting for the body, so a hostile length never makes us buffer 4 GiB.
      if (length > MAX_PAYLOAD) throw new FrameError(`ttrpc: frame length ${length} exceeds ${MAX_PAYLOAD}`);
      if (!isMessageType(type)) throw new FrameError(`ttrpc: unknown message type ${type}`);
      if (this.buffered < HEADER_LENGTH + length) break;
      const whole = this.take(HEADER_LENGTH + length);
      frames.push({
        streamId: head.readUInt32BE(4),
        type,
        flags: head.readUInt8(9),
        payload: whole.subarray(HEADER_LENGTH),
      });
    }
    return frames;
  }

  private peek(n: number): Buffer {
    if (this.chunks[0].length < n) this.chunks = [Buffer.concat(this.chunks)];
    return this.chunks[0].subarray(0, n);
  }

  private take(n: number): Buffer {
    const all = this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks);
    const out = Buffer.from(all.subarray(0, n));
    const rest = all.subarray(n);
    this.chunks = rest.length > 0 ? [rest] : [];
    this.buffered = rest.length;
    return out;
  }
}

// Go clients of the crictl 1.26 generation send the socket path as :authority. A raw HTTP/2 client
// does the same here, against a real berthd: the call must succeed, and HPACK state must survive
// many calls on one connection (the client indexes headers into its dynamic table).
import * as http2 from 'node:http2';
import * as net from 'node:net';
import { startBerthd, type RunningBerthd } from '../../harness/daemon';
import { ClientStreamRewriter, encodeLiteralBlock, frame, isAcceptableAuthority, PREFACE } from '../../../internal/h2/authority_rewrite';

function grpcFrame(message: Buffer): Buffer {
  const head = Buffer.alloc(5);
  head.writeUInt32BE(message.length, 1);
  return Buffer.concat([head, message]);
}

function callVersion(session: http2.ClientHttp2Session, authority: string): Promise<{ status: string | undefined; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = session.request({
      ':method': 'POST',
      ':path': '/runtime.v1.RuntimeService/Version',
      ':authority': authority,
      'content-type': 'application/grpc',
      te: 'trailers',
    });
    const chunks: Buffer[] = [];
    let status: string | undefined;
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('trailers', (t) => (status = String(t['grpc-status'])));
    req.on('error', reject);
    req.on('end', () => resolve({ status, body: Buffer.concat(chunks) }));
    req.end(grpcFrame(Buffer.alloc(0)));
  });
}

describe(':authority rewriting', () => {
  let berthd: RunningBerthd;
  beforeAll(async () => {
    berthd = await startBerthd({});
  });
  afterAll(async () => {
    await berthd?.stop();
  });

  it('answers a client that sends the socket path as authority, many times on one connection', async () => {
    const session = http2.connect('http://localhost', { createConnection: () => net.connect(berthd.socket) });
    try {
      for (let i = 0; i < 20; i++) {
        const { status, body } = await callVersion(session, berthd.socket);
        expect(status).toBe('0');
        expect(body.toString('latin1')).toContain('berth');
      }
    } finally {
      session.close();
    }
  });
});

describe('stopping with a connection that has not sent a request yet', () => {
  it('closes that connection and exits (SIGTERM), with exit status 0', async () => {
    const berthd = await startBerthd({});
    const conn = net.connect(berthd.socket);
    const closed = new Promise<void>((resolve) => conn.once('close', () => resolve()));
    conn.on('error', () => undefined);
    // As grpc-go before its first call: preface and SETTINGS, then the server's preface acknowledged.
    const preface = new Promise<void>((resolve) => conn.once('data', () => resolve()));
    conn.write(Buffer.concat([PREFACE, frame(0x4, 0, 0, Buffer.alloc(0))]));
    await preface;
    conn.write(frame(0x4, 0x1, 0, Buffer.alloc(0)));
    const status = await berthd.stop();
    expect(status).toMatchObject({ code: 0 });
    await closed;
  });
});

describe('ClientStreamRewriter', () => {
  it('accepts host-like authorities and refuses paths', () => {
    expect(isAcceptableAuthority('localhost')).toBe(true);
    expect(isAcceptableAuthority('127.0.0.1:8080')).toBe(true);
    expect(isAcceptableAuthority('/run/berth/berth.sock')).toBe(false);
  });

  it('passes non-HTTP/2 bytes through untouched', () => {
    const r = new ClientStreamRewriter();
    const junk = Buffer.from('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(Buffer.concat(r.push(junk))).toEqual(junk);
  });

  it('passes a connection whose first block has a valid authority through byte for byte', () => {
    const r = new ClientStreamRewriter();
    const frame = (type: number, flags: number, streamId: number, payload: Buffer) => {
      const h = Buffer.alloc(9);
      h.writeUIntBE(payload.length, 0, 3);
      h[3] = type;
      h[4] = flags;
      h.writeUInt32BE(streamId, 5);
      return Buffer.concat([h, payload]);
    };
    // Incrementally indexed literal (0x40): the server's table must see exactly what the client's has.
    const indexed = Buffer.concat([Buffer.from([0x40, 10]), Buffer.from(':authority'), Buffer.from([9]), Buffer.from('localhost')]);
    const input = Buffer.concat([
      Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n'),
      frame(1, 4, 1, indexed),
      frame(0, 1, 1, Buffer.from('body')),
      frame(1, 5, 3, Buffer.from([0xbe])), // indexed reference to the entry added above
    ]);
    const out = Buffer.concat([...input].flatMap((b) => r.push(Buffer.from([b]))));
    expect(out).toEqual(input);
  });

  it('drops the acknowledgement of the router\'s SETTINGS once, and nothing once frames can no longer be followed', () => {
    const ack = frame(0x4, 0x1, 0, Buffer.alloc(0));
    const request = frame(0x1, 0x4, 1, encodeLiteralBlock([{ name: ':authority', value: 'localhost' }]));
    // Followed frame by frame: the first acknowledgement goes, the second (of the server's SETTINGS) stays.
    const followed = new ClientStreamRewriter(true);
    const kept = Buffer.concat([PREFACE, request, ack]);
    expect(Buffer.concat([...followed.push(Buffer.concat([PREFACE, request, ack])), ...followed.push(ack)])).toEqual(kept);
    // A frame larger than the server accepts ends the following (the server refuses it): bytes of its
    // payload that look like an acknowledgement are payload, and pass.
    const oversized = Buffer.alloc(9 + 20_000);
    oversized.writeUIntBE(20_000, 0, 3);
    ack.copy(oversized, 9 + 100);
    const input = Buffer.concat([PREFACE, request, oversized]);
    const cut = PREFACE.length + request.length + 9 + 100;
    const unfollowed = new ClientStreamRewriter(true);
    expect(Buffer.concat([...unfollowed.push(input.subarray(0, cut)), ...unfollowed.push(input.subarray(cut))])).toEqual(input);
  });

  it('re-encodes a header block split over HEADERS and CONTINUATION', () => {
    const r = new ClientStreamRewriter();
    const block = encodeLiteralBlock([
      { name: ':method', value: 'POST' },
      { name: ':authority', value: '/x.sock' },
    ]);
    const frame = (type: number, flags: number, payload: Buffer) => {
      const h = Buffer.alloc(9);
      h.writeUIntBE(payload.length, 0, 3);
      h[3] = type;
      h[4] = flags;
      h.writeUInt32BE(1, 5);
      return Buffer.concat([h, payload]);
    };
    const preface = Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n');
    const input = Buffer.concat([preface, frame(1, 0, block.subarray(0, 5)), frame(9, 4, block.subarray(5))]);
    // Feed byte by byte: frames straddle chunks.
    const out = Buffer.concat([...input].flatMap((b) => r.push(Buffer.from([b]))));
    expect(out.subarray(0, preface.length)).toEqual(preface);
    const headers = out.subarray(preface.length);
    expect(headers[3]).toBe(1);
    expect(headers[4] & 4).toBe(4);
    expect(headers.subarray(9).toString('latin1')).toContain('localhost');
    expect(headers.subarray(9).toString('latin1')).not.toContain('/x.sock');
  });
});

/** The continuation bytes of an HPACK integer past its prefix (RFC 7541 section 5.1). */
function hpackIntTail(rest: number): number[] {
  const out: number[] = [];
  while (rest >= 128) {
    out.push((rest % 128) + 128);
    rest = Math.floor(rest / 128);
  }
  out.push(rest);
  return out;
}

describe('ClientStreamRewriter bounds', () => {
  const preface = Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n');
  const frame = (type: number, flags: number, streamId: number, payload: Buffer, declared = payload.length) => {
    const h = Buffer.alloc(9);
    h.writeUIntBE(declared, 0, 3);
    h[3] = type;
    h[4] = flags;
    h.writeUInt32BE(streamId, 5);
    return Buffer.concat([h, payload]);
  };
  const encodeString = (s: string) => Buffer.concat([Buffer.from([s.length < 127 ? s.length : 127, ...(s.length < 127 ? [] : hpackIntTail(s.length - 127))]), Buffer.from(s, 'latin1')]);
  const pathAuthority = encodeLiteralBlock([
    { name: ':method', value: 'POST' },
    { name: ':authority', value: '/x.sock' },
  ]);

  it('refuses a CONTINUATION flood instead of holding an endless header block', () => {
    const r = new ClientStreamRewriter();
    r.push(Buffer.concat([preface, frame(1, 0, 1, Buffer.alloc(16))]));
    const continuation = frame(9, 0, 1, Buffer.alloc(16_384));
    let thrown: unknown;
    let fed = 0;
    try {
      for (; fed < 200; fed++) r.push(continuation);
    } catch (err) {
      thrown = err;
    }
    expect(String(thrown)).toMatch(/header block over/);
    // Refused at 128 KiB, long before the 3 MiB sent.
    expect(fed).toBeLessThan(10);
  });

  it('refuses a block of references to one large table entry (an HPACK bomb) before re-encoding it', () => {
    const r = new ClientStreamRewriter();
    // Literal with incremental indexing, new name: the 4 KB value goes into the dynamic table (index 62).
    const pad = Buffer.concat([Buffer.from([0x40]), encodeString('x-pad'), encodeString('a'.repeat(4000))]);
    r.push(Buffer.concat([preface, frame(1, 4, 1, Buffer.concat([pathAuthority, pad]))]));
    // 20 one-byte references decode to 80 KB: over the 64 KiB header list the server takes.
    const bomb = Buffer.concat([pathAuthority, Buffer.alloc(20, 0x80 | 62)]);
    expect(() => r.push(frame(1, 4, 3, bomb))).toThrow(/header list over 65535 bytes once decoded/);
  });

  it('refuses a block it cannot decode at once, not a tick later with the block passed on half decoded', () => {
    const r = new ClientStreamRewriter();
    r.push(Buffer.concat([preface, frame(1, 4, 1, pathAuthority)]));
    // An indexed field naming entry 100: past the static table and the (empty) dynamic one.
    expect(() => r.push(frame(1, 4, 3, Buffer.concat([pathAuthority, Buffer.from([0x80 | 100])])))).toThrow();
  });

  it('does not wait for a frame larger than the server accepts once it rewrites', () => {
    const r = new ClientStreamRewriter();
    r.push(Buffer.concat([preface, frame(1, 4, 1, pathAuthority)]));
    // A DATA frame declaring 8 MiB: holding its bytes until it completes is what an attacker wants.
    expect(() => r.push(frame(0, 0, 1, Buffer.alloc(100), 8 << 20))).toThrow(/frame size limit/);
  });

  it('hands an oversized first frame to the server untouched (it answers FRAME_SIZE_ERROR itself)', () => {
    const r = new ClientStreamRewriter();
    const big = frame(0, 0, 1, Buffer.alloc(100), 8 << 20);
    const out = Buffer.concat(r.push(Buffer.concat([preface, big])));
    expect(out).toEqual(Buffer.concat([preface, big]));
  });
});

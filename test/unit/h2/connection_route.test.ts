// routeConnection (internal/h2/connection_route.ts) over real unix sockets, with Node's own HTTP/2
// server behind it: a client whose first request carries a valid :authority reaches the server on
// the very socket it connected on; one sending the socket path, or pinging before its first
// request, goes through the bridge; either way every call is answered and the server never sees
// the acknowledgement of the SETTINGS frame the router sent (nghttp2 would end the connection).
import * as http2 from 'node:http2';
import * as net from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { routeConnection } from '../../../internal/h2/connection_route';
import { encodeLiteralBlock, frame, PREFACE } from '../../../internal/h2/authority_rewrite';
import { setTimeout as sleep } from 'node:timers/promises';

interface Served {
  path: string;
  /** Each accepted socket, and the socket routeConnection handed on for it. */
  routes: { accepted: net.Socket; routed: net.Socket }[];
  /** What the server answered was asked of it, as :authority values. */
  authorities: string[];
  /** Accepted connections without a request yet. */
  undecided: Set<net.Socket>;
  close(): Promise<void>;
}

async function serve(dir: string, handshakeTimeoutMs?: number): Promise<Served> {
  const h2 = http2.createServer();
  const authorities: string[] = [];
  h2.on('stream', (stream, headers) => {
    authorities.push(String(headers[':authority']));
    stream.respond({ ':status': 200 });
    stream.end(`hello ${headers[':path']}`);
  });
  const routes: Served['routes'] = [];
  const sockets = new Set<net.Socket>();
  const undecided = new Set<net.Socket>();
  const listener = net.createServer({ allowHalfOpen: true }, (accepted) => {
    sockets.add(accepted);
    routeConnection(accepted, (routed) => {
      routes.push({ accepted, routed });
      sockets.add(routed);
      h2.emit('connection', routed);
    }, { undecided, handshakeTimeoutMs });
  });
  const path = join(dir, 'route.sock');
  await new Promise<void>((resolve) => listener.listen(path, resolve));
  return {
    path,
    routes,
    authorities,
    undecided,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => listener.close(() => resolve()));
    },
  };
}

function get(session: http2.ClientHttp2Session, path: string, authority?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = session.request({ ':path': path, ...(authority === undefined ? {} : { ':authority': authority }) });
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => resolve(body));
    req.on('error', reject);
    req.end();
  });
}

/** Resolves once the other side closed the socket (the test's own timeout bounds the wait). */
function closedBy(socket: net.Socket): Promise<void> {
  return new Promise((resolve) => {
    socket.on('close', () => resolve());
    socket.resume();
  });
}

describe('routeConnection', () => {
  let dir: string;
  let served: Served;
  const sessions: http2.ClientHttp2Session[] = [];
  const connect = () => {
    const session = http2.connect('http://localhost', { createConnection: () => net.connect(served.path) });
    sessions.push(session);
    return session;
  };

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'berth-route-'));
    served = await serve(dir);
  });
  afterEach(async () => {
    for (const s of sessions.splice(0)) s.destroy();
    await served.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('hands a client with a valid authority to the server on its own socket, for every call', async () => {
    const session = connect();
    for (let i = 0; i < 5; i++) expect(await get(session, `/call/${i}`)).toBe(`hello /call/${i}`);
    expect(served.routes).toHaveLength(1);
    expect(served.routes[0]!.routed).toBe(served.routes[0]!.accepted);
    expect(served.authorities).toEqual(Array(5).fill('localhost:80'));
  });

  describe('with a short handshake timeout', () => {
    // Long enough that a loaded machine still reads a prompt client's handshake within it.
    const TIMEOUT_MS = 500;
    beforeEach(async () => {
      await served.close();
      served = await serve(dir, TIMEOUT_MS);
    });

    it('closes a connection that sends nothing, or only part of the preface, within it', async () => {
      const silent = net.connect(served.path);
      const partial = net.connect(served.path, () => partial.write(PREFACE.subarray(0, 10)));
      await Promise.all([closedBy(silent), closedBy(partial)]);
      // The server's own ends close (and leave the set) a turn or more after the clients see it.
      while (served.undecided.size > 0) await sleep(5);
      expect(served.routes).toHaveLength(0);
    });

    it('keeps a client that sent its preface and SETTINGS in time, without a request, past it', async () => {
      const session = connect();
      await new Promise<void>((resolve) => session.once('remoteSettings', () => resolve()));
      await sleep(3 * TIMEOUT_MS);
      expect(session.closed || session.destroyed).toBe(false);
      expect(served.undecided.size).toBe(1);
      expect(await get(session, '/late')).toBe('hello /late');
    });
  });

  it('keeps a connection in the undecided set until its first request', async () => {
    const session = connect();
    await new Promise<void>((resolve) => session.once('remoteSettings', () => resolve()));
    expect(served.undecided.size).toBe(1);
    expect(await get(session, '/first')).toBe('hello /first');
    expect(served.undecided.size).toBe(0);
  });

  it('bridges a client that sends the socket path as authority: the server sees a valid one', async () => {
    const session = connect();
    for (let i = 0; i < 5; i++) expect(await get(session, `/call/${i}`, served.path)).toBe(`hello /call/${i}`);
    expect(served.routes).toHaveLength(1);
    expect(served.routes[0]!.routed).not.toBe(served.routes[0]!.accepted);
    expect(served.authorities).toEqual(Array(5).fill('localhost'));
  });

  it('does not hand on directly a first block it cannot decode, whatever valid authority it starts with', async () => {
    const raw = net.connect(served.path);
    const closed = closedBy(raw);
    // A valid authority, then an indexed field naming entry 100: past both HPACK tables.
    const block = Buffer.concat([encodeLiteralBlock([{ name: ':method', value: 'POST' }, { name: ':authority', value: 'localhost' }]), Buffer.from([0x80 | 100])]);
    raw.write(Buffer.concat([PREFACE, frame(0x4, 0, 0, Buffer.alloc(0)), frame(0x1, 0x4, 1, block)]));
    await closed;
    // Bridged, where the rewriter refuses the block and drops the connection.
    expect(served.routes).toHaveLength(1);
    expect(served.routes[0]!.routed).not.toBe(served.routes[0]!.accepted);
    expect(served.authorities).toEqual([]);
  });

  it('bridges a client that pings before its first request, and the ping is answered', async () => {
    const session = connect();
    await new Promise<void>((resolve, reject) => {
      session.once('remoteSettings', () => {
        session.ping((err) => (err ? reject(err) : resolve()));
      });
    });
    expect(served.routes).toHaveLength(1);
    expect(served.routes[0]!.routed).not.toBe(served.routes[0]!.accepted);
    expect(await get(session, '/after-ping')).toBe('hello /after-ping');
  });

  it('answers a raw client that waits for the server preface but never acknowledges it (bridged)', async () => {
    const conn = net.connect(served.path);
    let received = Buffer.alloc(0);
    const answered = new Promise<string>((resolve, reject) => {
      conn.on('error', reject);
      conn.on('data', (chunk: Buffer) => {
        const first = received.length === 0;
        received = Buffer.concat([received, chunk]);
        // The router's preface came: send a request (literal headers, no HPACK table), no ACK ever.
        if (first) {
          const block = encodeLiteralBlock([
            { name: ':method', value: 'GET' },
            { name: ':scheme', value: 'http' },
            { name: ':path', value: '/raw' },
            { name: ':authority', value: 'localhost' },
          ]);
          conn.write(frame(1, 0x5, 1, block)); // HEADERS, END_STREAM | END_HEADERS
        }
        if (received.includes('hello /raw')) resolve(received.toString('latin1'));
      });
    });
    conn.write(Buffer.concat([PREFACE, frame(4, 0, 0, Buffer.alloc(0))]));
    expect(await answered).toContain('hello /raw');
    conn.destroy();
    expect(served.routes).toHaveLength(1);
    expect(served.routes[0]!.routed).not.toBe(served.routes[0]!.accepted);
  });

  it('decides on a first request sent a byte at a time, acknowledgement and a block in CONTINUATIONs included', async () => {
    const conn = net.connect(served.path);
    const trickle = async (bytes: Buffer) => {
      for (const byte of bytes) await new Promise<void>((resolve, reject) => conn.write(Buffer.of(byte), (err) => (err ? reject(err) : resolve())));
    };
    let received = Buffer.alloc(0);
    const routerPreface = new Promise<void>((resolve) => conn.once('data', () => resolve()));
    const answered = new Promise<void>((resolve, reject) => {
      conn.on('error', reject);
      conn.on('data', (chunk: Buffer) => {
        received = Buffer.concat([received, chunk]);
        if (received.includes('hello /trickled')) resolve();
      });
    });
    await trickle(Buffer.concat([PREFACE, frame(4, 0, 0, Buffer.alloc(0))]));
    await routerPreface;
    const block = encodeLiteralBlock([
      { name: ':method', value: 'GET' },
      { name: ':scheme', value: 'http' },
      { name: ':path', value: '/trickled' },
      { name: ':authority', value: 'localhost' },
      { name: 'x-padding', value: 'p'.repeat(6000) },
    ]);
    await trickle(
      Buffer.concat([
        frame(4, 0x1, 0, Buffer.alloc(0)), // the acknowledgement of the router's SETTINGS
        frame(1, 0x1, 1, block.subarray(0, 2500)), // HEADERS, END_STREAM
        frame(9, 0, 1, block.subarray(2500, 5000)),
        frame(9, 0x4, 1, block.subarray(5000)), // CONTINUATION, END_HEADERS
      ]),
    );
    await answered;
    conn.destroy();
    // Handed on as it connected, the acknowledgement dropped (the server would have ended the connection on it).
    expect(served.routes).toHaveLength(1);
    expect(served.routes[0]!.routed).toBe(served.routes[0]!.accepted);
    expect(served.authorities).toEqual(['localhost']);
  });

  it('closes a connection that is not HTTP/2 with prior knowledge, or says too much before its first request', async () => {
    const http1 = net.connect(served.path);
    const closedHttp1 = closedBy(http1);
    http1.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
    await closedHttp1;
    // The preface, then SETTINGS frames (no acknowledgement, no request) past the router's bound.
    const chatty = net.connect(served.path);
    const closedChatty = closedBy(chatty);
    const settings = Buffer.from([0, 0, 6, 4, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 100]);
    chatty.write(Buffer.concat([PREFACE, ...Array<Buffer>(5000).fill(settings)]));
    await closedChatty;
    expect(served.routes).toEqual([]);
  });
});

// Port-forward through the streaming server to a real TCP server on 127.0.0.1 (the host-network
// path of portForwardInNetns), over SPDY and WebSocket.
import { createServer, type Server, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { portForward, type Transport } from '../../harness/streaming_client';
import { startFixture, type Fixture } from './fixture';

/** An echo server that upper-cases what it gets and half-closes when the client does. */
async function startEchoServer(): Promise<{ server: Server; port: number; sockets: Set<Socket> }> {
  const sockets = new Set<Socket>();
  const server = createServer({ allowHalfOpen: true }, (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('data', (d: Buffer) => socket.write(d.toString().toUpperCase()));
    socket.on('end', () => socket.end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const addr = server.address();
  return { server, port: typeof addr === 'object' && addr ? addr.port : 0, sockets };
}

/** An unused port: bound once, then released. */
async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const addr = s.address();
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return typeof addr === 'object' && addr ? addr.port : 0;
}

const readUntil = (stream: Duplex, expected: string): Promise<string> =>
  new Promise((resolve, reject) => {
    let got = '';
    const onData = (c: Buffer) => {
      got += c.toString();
      if (got.length >= expected.length) {
        stream.removeListener('data', onData);
        resolve(got);
      }
    };
    stream.on('data', onData);
    stream.once('end', () => (got.length >= expected.length ? resolve(got) : reject(new Error(`stream ended after "${got}"`))));
  });

const readToEnd = (stream: Duplex): Promise<string> =>
  new Promise((resolve) => {
    let got = '';
    stream.on('data', (c: Buffer) => (got += c.toString()));
    stream.once('end', () => resolve(got));
  });

type EchoServer = Awaited<ReturnType<typeof startEchoServer>>;

/** Gives each test of the calling describe a fresh streaming fixture and echo server, stopped after it. */
function freshFixtureAndEcho(): { readonly f: Fixture; readonly echo: EchoServer } {
  const t = {} as { f: Fixture; echo: EchoServer };
  beforeEach(async () => {
    t.f = await startFixture();
    t.echo = await startEchoServer();
  });
  afterEach(async () => {
    await t.f.stop();
    for (const s of t.echo.sockets) s.destroy();
    await new Promise<void>((resolve) => t.echo.server.close(() => resolve()));
  });
  return t;
}

describe.each<Transport>(['spdy', 'websocket'])('port-forward over %s', (transport) => {
  const t = freshFixtureAndEcho();

  it('carries bytes to the port and back', async () => {
    const url = t.f.server.getPortForward({ pod_sandbox_id: 'sb1', port: [t.echo.port] });
    const fwd = await portForward(url, t.echo.port, transport);
    const reply = readUntil(fwd.stream, 'PING 1');
    fwd.stream.write('ping 1');
    expect(await reply).toBe('PING 1');
    const big = 'x'.repeat(200_000);
    const bigReply = readUntil(fwd.stream, big);
    fwd.stream.write(big);
    expect(await bigReply).toBe(big.toUpperCase());
    fwd.close();
    expect(await fwd.errorText).toBe('');
  });

  it('reports a port nobody listens on on the error stream', async () => {
    const port = await closedPort();
    const url = t.f.server.getPortForward({ pod_sandbox_id: 'sb1', port: [port] });
    const fwd = await portForward(url, port, transport);
    const text = await fwd.errorText;
    expect(text).toContain(`error forwarding port ${port} to pod sb1`);
    expect(text).toContain(`localhost:${port}`);
    fwd.close();
  });
});

describe('port-forward over spdy', () => {
  const t = freshFixtureAndEcho();

  it('passes a half-close through: the client ends, the port answers, then both ends close', async () => {
    const url = t.f.server.getPortForward({ pod_sandbox_id: 'sb1', port: [] });
    const fwd = await portForward(url, t.echo.port, 'spdy');
    const all = readToEnd(fwd.stream);
    fwd.stream.end('last words');
    expect(await all).toBe('LAST WORDS');
    fwd.close();
  });

  it('closes forwarded connections when the server stops', async () => {
    const url = t.f.server.getPortForward({ pod_sandbox_id: 'sb1', port: [t.echo.port] });
    const fwd = await portForward(url, t.echo.port, 'spdy');
    const reply = readUntil(fwd.stream, 'HI');
    fwd.stream.write('hi');
    await reply;
    expect(t.echo.sockets.size).toBe(1);
    const targetClosed = new Promise<void>((resolve) => [...t.echo.sockets][0].once('close', () => resolve()));
    await t.f.server.stop();
    await targetClosed; // the connection into the "pod" is gone too
    expect(t.echo.sockets.size).toBe(0);
  });
});

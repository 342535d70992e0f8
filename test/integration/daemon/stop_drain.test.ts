// What berthd's SIGTERM stop drains. With clients connected but nothing in flight it leaves at once,
// as containerd's Stop does; a call whose answer has not all gone out (here: held back by the
// client's HTTP/2 flow-control window) is drained, and so is every connection through the
// :authority bridge, whose bytes berthd cannot see. Raw HTTP/2 clients (node:http2), so the test
// decides the window and the :authority.
import { once } from 'node:events';
import * as http2 from 'node:http2';
import * as net from 'node:net';
import { startBerthd, type RunningBerthd } from '../../harness/daemon';

/** An empty VersionRequest as a gRPC message: no compression flag, length 0. */
const EMPTY_MESSAGE = Buffer.alloc(5);

function connect(socket: string, settings?: http2.Settings): http2.ClientHttp2Session {
  const session = http2.connect('http://localhost', { createConnection: () => net.connect(socket), settings });
  session.on('error', () => undefined); // the daemon's exit may reset the connection
  return session;
}

interface Answer {
  headers: Promise<unknown>;
  /** The trailers' grpc-status and the message bytes received before them. */
  done: Promise<{ status: string | undefined; body: Buffer }>;
}

function version(session: http2.ClientHttp2Session, authority: string): Answer {
  const stream = session.request({
    ':method': 'POST',
    ':path': '/runtime.v1.RuntimeService/Version',
    ':authority': authority,
    'content-type': 'application/grpc',
    te: 'trailers',
  });
  stream.end(EMPTY_MESSAGE);
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<{ status: string | undefined; body: Buffer }>((resolve, reject) => {
    stream.once('trailers', (trailers) => resolve({ status: trailers['grpc-status'] as string | undefined, body: Buffer.concat(chunks) }));
    stream.once('close', () => reject(new Error(`stream closed without trailers (code ${stream.rstCode})`)));
  });
  const headers = once(stream, 'response');
  headers.catch(() => undefined); // awaited by one test only; an error after the answer is not news
  return { headers, done };
}

function stoppedLine(d: RunningBerthd): Record<string, unknown> {
  const line = d.stderr().split('\n').find((l) => l.includes('"msg":"berthd stopped"'));
  if (line === undefined) throw new Error(`no "berthd stopped" line in:\n${d.stderr()}`);
  return JSON.parse(line) as Record<string, unknown>;
}

async function untilLogged(d: RunningBerthd, msg: string): Promise<void> {
  while (!d.stderr().includes(`"msg":"${msg}"`)) await new Promise((r) => setTimeout(r, 10));
}

describe('berthd stop, what it drains', () => {
  it('leaves at once when its connected client has no call open, and the connection just closes', async () => {
    const d = await startBerthd();
    const session = connect(d.socket);
    try {
      const answer = version(session, 'localhost');
      expect((await answer.done).status).toBe('0');
      // Closed, maybe with ECONNRESET (berthd left with the client's last frames unread): not awaited
      // with events.once, which rejects on the 'error' before 'close'.
      const closed = new Promise<void>((resolve) => session.once('close', () => resolve()));
      let goaway = false;
      session.once('goaway', () => (goaway = true));
      expect(await d.stop()).toEqual({ code: 0, signal: null });
      expect(stoppedLine(d)).toMatchObject({ drained: false });
      await closed;
      expect(goaway).toBe(false);
    } finally {
      session.destroy();
      await d.stop(); // a no-op once it has exited; else the test failed before its stop
    }
  });

  it("drains an answer the client's flow-control window still holds back, which the client then gets whole", async () => {
    const d = await startBerthd();
    // A window of 0: berthd may send the answer's headers, not its message, until the window opens.
    const session = connect(d.socket, { initialWindowSize: 0 });
    try {
      const answer = version(session, 'localhost');
      await answer.headers; // answered: the message waits on the window
      process.kill(d.pid, 'SIGTERM');
      // "stopping" is logged in the same turn that decides whether to drain, before any later read.
      await untilLogged(d, 'stopping');
      session.settings({ initialWindowSize: 65_535 });
      const { status, body } = await answer.done;
      expect(status).toBe('0');
      expect(body.toString('latin1')).toContain('berth');
      expect(await d.exited).toEqual({ code: 0, signal: null });
      expect(stoppedLine(d)).toMatchObject({ drained: true });
    } finally {
      session.destroy();
      await d.stop(); // gone already, or the test failed before: either way ends it and removes its directory
    }
  });

  it('drains when a client is connected through the :authority bridge, and tells it with a GOAWAY', async () => {
    const d = await startBerthd();
    const session = connect(d.socket);
    try {
      // The socket path as :authority, as crictl 1.26 and kubelets before 1.26 send it: bridged.
      const answer = version(session, d.socket);
      expect((await answer.done).status).toBe('0');
      const goaway = new Promise<void>((resolve) => session.once('goaway', () => resolve()));
      expect(await d.stop()).toEqual({ code: 0, signal: null });
      expect(stoppedLine(d)).toMatchObject({ drained: true });
      await goaway;
    } finally {
      session.destroy();
      await d.stop(); // a no-op once it has exited; else the test failed before its stop
    }
  });
});

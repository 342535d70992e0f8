// What a client holding an exec/attach/port-forward URL (pods/exec rights) can send berthd's
// streaming server, frame by frame: zlib bombs, header floods, stream floods, resets, data on
// streams nobody reads, clients that never read, oversized and out-of-order WebSocket messages.
// After each, berthd's memory stayed within a fixed margin (its peak too) and it still serves.
import { randomBytes } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import type { ExecRequest } from '../../../internal/api/gen/runtime/v1/ExecRequest';
import type { PodSandboxConfig } from '../../../internal/api/gen/runtime/v1/PodSandboxConfig';
import { socketCount } from '../../harness/proc_fds';
import { startContainerSuite, type ContainerSuite } from '../cri_containers/env';
import { closeSuiteCleanly } from './clean_host';
import { MEMORY_MARGIN_KIB, expectServing, memoryAround, settledProcessCount, watchExit, within } from './daemon_health';
import { FIN, GOAWAY, RST_STREAM, RawSpdy, RawWebSocket, SYN_STREAM, controlFrame, dataFrame, pingFrame, rstFrame, words } from './raw_clients';

jest.setTimeout(300_000);

const SLEEPER = ['sh', '-c', 'trap "exit 0" TERM; sleep 3600 & wait'];
const SYN_REPLY = 2;
const MiB = 1024 * 1024;

/** Writes frames until all are taken or the server stops reading (no progress for a while). */
async function writeUntilStalled(conn: RawSpdy, frames: Iterable<Buffer>): Promise<number> {
  let written = 0;
  for (const frame of frames) {
    const stalled = new Promise<boolean>((resolve) => setTimeout(() => resolve(true), 3_000).unref());
    if (await Promise.race([conn.write(frame).then(() => false), stalled])) break;
    if (conn.socket.destroyed) break;
    written += frame.length;
  }
  return written;
}

/** Resolves once `done()` (bounded by the caller's within()). */
async function poll(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((r) => setTimeout(r, 50));
}

function* repeat(frame: Buffer, times: number): Generator<Buffer> {
  for (let i = 0; i < times; i++) yield frame;
}

describe('hostile streaming clients against a real berthd', () => {
  let s: ContainerSuite;
  let id: string;
  let pid: number;
  let podId: string;
  let podConfig: PodSandboxConfig;

  beforeAll(async () => {
    s = await startContainerSuite();
    watchExit(s);
    pid = s.daemon.pid;
    const pod = await s.runPod('hostile');
    podId = pod.podId;
    podConfig = pod.config;
    id = await s.create(podId, pod.config, 'target', SLEEPER);
    await s.client.runtime.StartContainer({ container_id: id });
    await expectServing(s, id);
  });

  afterAll(async () => {
    await closeSuiteCleanly(s);
  });

  const execUrl = async (cmd: string[], extra: Partial<ExecRequest> = {}) =>
    (await s.client.runtime.Exec({ container_id: id, cmd, stdout: true, stderr: !extra.tty, ...extra })).url;

  /** berthd's open sockets (TCP and unix). */
  const sockets = () => socketCount(pid);

  const expectBounded = (m: { before: number; peak: number; after: number }) => {
    expect(m.peak - m.before).toBeLessThan(MEMORY_MARGIN_KIB);
    expect(m.after - m.before).toBeLessThan(MEMORY_MARGIN_KIB);
  };

  /** Opens a stream and waits for its SYN_REPLY. */
  const openStream = async (conn: RawSpdy, streamId: number, headers: Record<string, string>) => {
    await conn.write(await conn.synStream(streamId, headers));
    await conn.until(() => conn.controls.some((c) => c.type === SYN_REPLY && c.body.readUInt32BE(0) === streamId), `SYN_REPLY for ${streamId}`);
  };

  describe('SPDY', () => {
    it('a header block that inflates to 200 MiB (zlib bomb) closes the connection, not the memory', async () => {
      const conn = await RawSpdy.open(await execUrl(['true']), 'v4.channel.k8s.io');
      const m = await memoryAround(pid, async () => {
        const zeros = Buffer.alloc(MiB);
        // One header whose name claims 256 MiB, followed by 200 MiB of zeros: ~200 KiB compressed.
        const block = await conn.compress([words(1, 0x10000000), ...Array.from({ length: 200 }, () => zeros)]);
        await conn.write(controlFrame(SYN_STREAM, 0, Buffer.concat([words(1, 0), Buffer.alloc(2), block])));
        await conn.closed;
      });
      expectBounded(m);
      await expectServing(s, id);
    });

    it('a SYN_STREAM with 50,000 headers is a protocol error: GOAWAY and the connection closes', async () => {
      const conn = await RawSpdy.open(await execUrl(['true']), 'v4.channel.k8s.io');
      const headers = Object.fromEntries(Array.from({ length: 50_000 }, (_, i) => [`h${i}`, 'v']));
      await conn.write(await conn.synStream(1, headers));
      await conn.closed;
      expect(conn.controls.find((c) => c.type === GOAWAY)?.body.readUInt32BE(4)).toBe(1); // PROTOCOL_ERROR
      await expectServing(s, id);
    });

    it('100,000 refused streams are all answered with RST_STREAM and none is kept', async () => {
      // A port-forward session: it has no stream-creation deadline that would end the flood early.
      const { url } = await s.client.runtime.PortForward({ pod_sandbox_id: podId, port: [] });
      const conn = await RawSpdy.open(url, 'portforward.k8s.io');
      const m = await memoryAround(pid, async () => {
        for (let batch = 0; batch < 100; batch++) {
          const frames: Buffer[] = [];
          for (let i = 0; i < 1000; i++) frames.push(await conn.synStream(2 * (batch * 1000 + i) + 1, { streamtype: 'bogus' }));
          await conn.write(Buffer.concat(frames));
        }
        await conn.roundTrip(1);
      });
      expect(conn.controls.filter((c) => c.type === RST_STREAM).length).toBe(100_000);
      conn.destroy();
      expectBounded(m);
      await expectServing(s, id);
    });

    it("port-forward pairs the client resets close their pod connections, though the pod's server keeps them open", async () => {
      // A pod server that never closes a connection from its side: one `sleep` holds each.
      await s.client.runtime.ExecSync({ container_id: id, cmd: ['sh', '-c', '(nc -ll -p 9000 -e sleep 3600 </dev/null >/dev/null 2>&1 &)'], timeout: '10' });
      const listening = ['sh', '-c', 'i=0; while [ $i -lt 100 ]; do netstat -ltn | grep -q ":9000 " && exit 0; sleep 0.1; i=$((i+1)); done; exit 1'];
      expect((await s.client.runtime.ExecSync({ container_id: id, cmd: listening, timeout: '30' })).exit_code).toBe(0);
      const { url } = await s.client.runtime.PortForward({ pod_sandbox_id: podId, port: [] });
      const conn = await RawSpdy.open(url, 'portforward.k8s.io');
      const before = sockets();
      const PAIRS = 50;
      const resets: Buffer[] = [];
      for (let i = 0; i < PAIRS; i++) {
        const [errorId, dataId] = [4 * i + 1, 4 * i + 3];
        await openStream(conn, errorId, { streamtype: 'error', port: '9000', requestid: `pair${i}` });
        await openStream(conn, dataId, { streamtype: 'data', port: '9000', requestid: `pair${i}` });
        resets.push(rstFrame(dataId), rstFrame(errorId));
      }
      await within(s, 'a pod connection for every pair', poll(() => sockets() >= before + PAIRS));
      await conn.write(Buffer.concat(resets));
      await within(s, "berthd to close the reset pairs' pod connections", poll(() => sockets() <= before));
      conn.destroy();
      await expectServing(s, id);
    });

    it('50,000 port-forward streams opened then reset by the client are freed at once', async () => {
      const { url } = await s.client.runtime.PortForward({ pod_sandbox_id: podId, port: [] });
      const conn = await RawSpdy.open(url, 'portforward.k8s.io');
      const m = await memoryAround(pid, async () => {
        for (let batch = 0; batch < 50; batch++) {
          const frames: Buffer[] = [];
          for (let i = 0; i < 1000; i++) {
            const streamId = 2 * (batch * 1000 + i) + 1;
            frames.push(await conn.synStream(streamId, { streamtype: 'error', port: '80', requestid: String(streamId) }), rstFrame(streamId));
          }
          await conn.write(Buffer.concat(frames));
        }
        // The session still takes new streams: the reset ones no longer count against its limit.
        await openStream(conn, 100_001, { streamtype: 'error', port: '80', requestid: 'last' });
        await conn.roundTrip(1);
      });
      conn.destroy();
      expectBounded(m);
      await expectServing(s, id);
    });

    it('256 MiB sent to the stdin of a process that never reads it is not buffered in berthd; the exec dies with the connection', async () => {
      const conn = await RawSpdy.open(await execUrl(['sleep', '3604'], { stdin: true }), 'v4.channel.k8s.io');
      await openStream(conn, 1, { streamtype: 'error' });
      await openStream(conn, 3, { streamtype: 'stdin' });
      await openStream(conn, 5, { streamtype: 'stdout' });
      await openStream(conn, 7, { streamtype: 'stderr' });
      const m = await memoryAround(pid, async () => {
        await writeUntilStalled(conn, repeat(dataFrame(3, 0, Buffer.alloc(32 * 1024, 'x')), (256 * MiB) / (32 * 1024)));
      });
      conn.socket.resetAndDestroy();
      expectBounded(m);
      expect(await settledProcessCount(s, id, 'sleep 3604')).toBe(0);
      await expectServing(s, id);
    });

    it('data on a stream berthd never reads (the error stream) is dropped, and the exec still completes', async () => {
      const conn = await RawSpdy.open(await execUrl(['sh', '-c', 'read line; echo "got $line"'], { stdin: true }), 'v4.channel.k8s.io');
      await openStream(conn, 1, { streamtype: 'error' });
      await openStream(conn, 3, { streamtype: 'stdin' });
      await openStream(conn, 5, { streamtype: 'stdout' });
      await openStream(conn, 7, { streamtype: 'stderr' });
      const m = await memoryAround(pid, async () => {
        await writeUntilStalled(conn, repeat(dataFrame(1, 0, Buffer.alloc(32 * 1024, 'e')), (128 * MiB) / (32 * 1024)));
      });
      expectBounded(m);
      await conn.write(dataFrame(3, FIN, Buffer.from('hello\n')));
      await conn.closed;
      expect(conn.dataOf(5)).toBe('got hello\n');
      await expectServing(s, id);
    });

    it('an attach client that never reads holds a chatty container output instead of berthd buffering it', async () => {
      // Waits for /tmp/go, then writes 128 MiB and marks the end; no log file, so the output only goes to attach.
      const cmd = ['sh', '-c', 'until [ -e /tmp/go ]; do sleep 0.05; done; head -c 134217728 /dev/zero; touch /tmp/done; exec sleep 3600'];
      const chatty = await s.create(podId, podConfig, 'chatty', cmd, { log_path: '' });
      await s.client.runtime.StartContainer({ container_id: chatty });
      const { url } = await s.client.runtime.Attach({ container_id: chatty, stdout: true, stderr: false, stdin: false });
      const conn = await RawSpdy.open(url, 'v4.channel.k8s.io');
      await openStream(conn, 1, { streamtype: 'error' });
      await openStream(conn, 3, { streamtype: 'stdout' });
      conn.stopReading();
      const finished = async () => (await s.client.runtime.ExecSync({ container_id: chatty, cmd: ['test', '-e', '/tmp/done'], timeout: '10' })).exit_code === 0;
      const m = await memoryAround(pid, async () => {
        await s.client.runtime.ExecSync({ container_id: chatty, cmd: ['touch', '/tmp/go'], timeout: '10' });
        // Either the container got all its output out (into berthd) or it is held: look for a while.
        const lookUntil = Date.now() + 10_000;
        while (!(await finished()) && Date.now() < lookUntil) await new Promise((r) => setTimeout(r, 200));
      });
      expectBounded(m);
      // The client leaves: the output flows again and the container goes on.
      conn.socket.resetAndDestroy();
      const giveUp = Date.now() + 60_000;
      while (!(await finished()) && Date.now() < giveUp) await new Promise((r) => setTimeout(r, 200));
      expect(await finished()).toBe(true);
      expect((await s.status(chatty)).state).toBe('CONTAINER_RUNNING');
      await expectServing(s, id);
    });

    it('a client that sends 1,000,000 PINGs and never reads gets no queue of answers in berthd', async () => {
      const conn = await RawSpdy.open(await execUrl(['true']), 'v4.channel.k8s.io');
      conn.stopReading();
      const m = await memoryAround(pid, async () => {
        const pings = Buffer.concat(Array.from({ length: 10_000 }, (_, i) => pingFrame(2 * i + 1)));
        await writeUntilStalled(conn, repeat(pings, 100));
      });
      conn.socket.resetAndDestroy();
      expectBounded(m);
      await expectServing(s, id);
    });
  });

  describe('WebSocket', () => {
    it('a message over 1 MiB closes the connection with 1009 (message too big)', async () => {
      const ws = await RawWebSocket.open(await execUrl(['cat'], { stdin: true }), 'v5.channel.k8s.io');
      ws.send(0, Buffer.alloc(8 * MiB, 'x'));
      // A server that took the message would echo it and end normally once stdin closes.
      ws.send(0, 'end\n');
      ws.sendFrame(0x2, Buffer.of(255, 0));
      await ws.closed;
      expect(ws.closeCode).toBe(1009);
      await expectServing(s, id, 'websocket');
    });

    it('stdin sent after the client closed stdin is dropped; berthd does not crash', async () => {
      const url = await within(s, 'Exec', execUrl(['cat'], { stdin: true }));
      const ws = await within(s, 'the WebSocket upgrade', RawWebSocket.open(url, 'v5.channel.k8s.io'));
      ws.send(0, 'first\n');
      ws.sendFrame(0x2, Buffer.of(255, 0));
      ws.send(0, 'after close\n');
      ws.send(0, 'and more\n');
      // Once hung for 300 s in CI (cat never ended, or the session never closed): the log says where.
      await within(s, 'the exec session of cat after its stdin closed', ws.closed);
      expect(ws.text(1)).toBe('first\n');
      expect(JSON.parse(ws.text(3))).toEqual({ metadata: {}, status: 'Success' });
      await expectServing(s, id, 'websocket');
    });

    it('a resize sent after the client closed the resize channel is dropped; berthd does not crash', async () => {
      const ws = await RawWebSocket.open(await execUrl(['sh', '-c', 'read line; echo "got $line"'], { stdin: true, tty: true }), 'v5.channel.k8s.io');
      ws.send(4, JSON.stringify({ Width: 100, Height: 40 }));
      ws.sendFrame(0x2, Buffer.of(255, 4));
      ws.send(4, JSON.stringify({ Width: 50, Height: 20 }));
      ws.send(0, 'hi\n');
      await ws.closed;
      expect(ws.text(1)).toContain('got hi');
      expect(JSON.parse(ws.text(3))).toEqual({ metadata: {}, status: 'Success' });
      await expectServing(s, id, 'websocket');
    });
  });
  describe('refused upgrades', () => {

    /** Sends an upgrade with a token nobody issued, keeps its end open, resolves with the response head. */
    const forgedUpgrade = (url: URL, upgrade: 'websocket' | 'SPDY/3.1') =>
      new Promise<{ socket: Socket; head: string }>((resolve, reject) => {
        const socket = connect({ host: url.hostname, port: Number(url.port), allowHalfOpen: true });
        let head = '';
        socket.on('data', (chunk: Buffer) => {
          head += chunk.toString('latin1');
          if (head.includes('\r\n\r\n')) resolve({ socket, head });
        });
        socket.once('error', reject);
        socket.once('connect', () => {
          const lines = [`GET /exec/forged${randomBytes(8).toString('hex')} HTTP/1.1`, `Host: ${url.host}`, 'Connection: Upgrade', `Upgrade: ${upgrade}`];
          if (upgrade === 'websocket') lines.push('Sec-WebSocket-Version: 13', `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}`);
          socket.write(lines.join('\r\n') + '\r\n\r\n');
        });
      });

    it('are closed by berthd once answered, though the client keeps its end open (no token needed to hold a descriptor)', async () => {
      const url = new URL(await execUrl(['true']));
      const before = sockets();
      const held: Socket[] = [];
      try {
        for (let i = 0; i < 200; i++) {
          const { socket, head } = await forgedUpgrade(url, i % 2 === 0 ? 'websocket' : 'SPDY/3.1');
          held.push(socket);
          expect(head).toMatch(/^HTTP\/1\.1 404 /);
        }
        // A guard against hanging, not a timing assert: before the fix the count never came back.
        await within(s, "berthd to close the refused upgrades' sockets", poll(() => sockets() <= before));
      } finally {
        for (const socket of held) socket.destroy();
      }
      await expectServing(s, id);
    });
  });
});

// Many concurrent short-lived streaming clients against a real berthd, each dropping its
// connection at a random point (during the upgrade, after it, halfway through opening streams or
// through a frame, while the command runs, after its first output), by FIN or by RST
// (resetAndDestroy). Afterwards berthd is alive and serves, the container still runs, no exec
// process is left behind, and berthd holds no more file descriptors than before.
import { readdirSync, writeFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { startContainerSuite, type ContainerSuite } from '../cri_containers/env';
import { closeSuiteCleanly } from './clean_host';
import { expectServing, settledProcessCount, watchExit } from './daemon_health';
import { RawSpdy, RawWebSocket, dataFrame } from './raw_clients';

jest.setTimeout(900_000);

const SLEEPER = ['sh', '-c', 'trap "exit 0" TERM; sleep 3600 & wait'];
const CONNECTIONS = 400;
const CONCURRENCY = 12;
const EXEC_CMD = ['sh', '-c', 'echo started; exec sleep 3605'];
const SYN_REPLY = 2;

/** mulberry32: a seeded generator, so a failing run can be replayed with its seed. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const DROP_POINTS = ['mid-upgrade', 'after-upgrade', 'mid-frame', 'mid-streams', 'mid-request', 'mid-response'] as const;
type DropPoint = (typeof DROP_POINTS)[number];

/** The connection a client holds, so a guard can drop it. */
interface Held {
  socket?: Socket;
}

/**
 * Bounds one client's run (a guard against a hung daemon, not a timing assertion). A client that
 * gives up drops its connection, as kubectl does on a timeout: berthd must clean up after it too.
 */
function withGuard<T>(run: Promise<T>, held: Held, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const guard = new Promise<never>(
    (_, reject) =>
      (timer = setTimeout(() => {
        held.socket?.destroy();
        reject(new Error(`${what}: no progress in 60s`));
      }, 60_000)),
  );
  return Promise.race([run, guard]).finally(() => clearTimeout(timer));
}

const fdCount = (pid: number) => readdirSync(`/proc/${pid}/fd`).length;

describe('many short-lived streaming connections dropped at random points', () => {
  let s: ContainerSuite;
  let id: string;

  beforeAll(async () => {
    s = await startContainerSuite();
    watchExit(s);
    const pod = await s.runPod('stress');
    id = await s.create(pod.podId, pod.config, 'target', SLEEPER);
    await s.client.runtime.StartContainer({ container_id: id });
    await expectServing(s, id);
  });

  afterAll(async () => {
    await closeSuiteCleanly(s);
  });

  const execUrl = async () =>
    (await s.client.runtime.Exec({ container_id: id, cmd: EXEC_CMD, stdin: true, stdout: true, stderr: true }, { deadline: Date.now() + 30_000 })).url;

  /** Drops the connection: RST (resetAndDestroy) or an orderly FIN then close. */
  const drop = (socket: import('node:net').Socket, rst: boolean) => (rst ? socket.resetAndDestroy() : socket.destroy());

  async function spdyClient(url: string, point: DropPoint, rst: boolean, random: () => number, held: Held): Promise<void> {
    if (point === 'mid-upgrade') return midUpgrade(url, 'POST', 'Upgrade: SPDY/3.1\r\nX-Stream-Protocol-Version: v4.channel.k8s.io', rst, random);
    const conn = await RawSpdy.open(url, 'v4.channel.k8s.io');
    held.socket = conn.socket;
    try {
      if (point === 'after-upgrade') return;
      const open = async (streamId: number, type: string) => {
        await conn.write(await conn.synStream(streamId, { streamtype: type }));
        await conn.until(() => conn.controls.some((c) => c.type === SYN_REPLY && c.body.readUInt32BE(0) === streamId), `reply ${streamId}`);
      };
      if (point === 'mid-frame') {
        const frame = await conn.synStream(1, { streamtype: 'error' });
        await conn.write(frame.subarray(0, 1 + Math.floor(random() * (frame.length - 1))));
        return;
      }
      await open(1, 'error');
      await open(3, 'stdin');
      if (point === 'mid-streams') return;
      await open(5, 'stdout');
      await open(7, 'stderr');
      await conn.write(dataFrame(3, 0, Buffer.from('some input\n')));
      if (point === 'mid-request') return;
      await conn.until(() => conn.dataOf(5).includes('started'), 'the first output');
    } finally {
      drop(conn.socket, rst);
    }
  }

  async function webSocketClient(url: string, point: DropPoint, rst: boolean, random: () => number, held: Held): Promise<void> {
    if (point === 'mid-upgrade') {
      return midUpgrade(url, 'GET', 'Upgrade: websocket\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Protocol: v5.channel.k8s.io', rst, random);
    }
    const ws = await RawWebSocket.open(url, 'v5.channel.k8s.io');
    held.socket = ws.socket;
    try {
      if (point === 'after-upgrade') return;
      if (point === 'mid-frame') {
        // Half of a masked frame header and payload.
        ws.socket.write(Buffer.from([0x82, 0x80 | 20, 1, 2, 3, 4, 5, 6]));
        return;
      }
      ws.send(0, 'some input\n');
      if (point === 'mid-streams' || point === 'mid-request') return;
      await ws.until(() => ws.text(1).includes('started'), 'the first output');
    } finally {
      drop(ws.socket, rst);
    }
  }

  /** Sends part of the upgrade request and drops the connection. */
  function midUpgrade(url: string, method: string, headers: string, rst: boolean, random: () => number): Promise<void> {
    const u = new URL(url);
    const request = Buffer.from(`${method} ${u.pathname} HTTP/1.1\r\nHost: ${u.host}\r\nConnection: Upgrade\r\n${headers}\r\n\r\n`);
    return new Promise((resolve) => {
      const socket = connect({ host: u.hostname, port: Number(u.port) }, () => {
        socket.write(request.subarray(0, Math.floor(random() * request.length)), () => {
          drop(socket, rst);
          resolve();
        });
      });
      socket.on('error', () => resolve());
    });
  }

  it(`${CONNECTIONS} clients, ${CONCURRENCY} at a time, leave berthd alive, serving and clean`, async () => {
    const seed = Number(process.env.BERTH_STRESS_SEED ?? Date.now() % 1_000_000);
    const random = prng(seed);
    console.log(`stress seed ${seed} (replay with BERTH_STRESS_SEED=${seed})`);
    const pid = s.daemon.pid;
    const fdsBefore = fdCount(pid);
    const failures: string[] = [];
    let next = 0;
    const worker = async () => {
      while (next < CONNECTIONS) {
        const n = next++;
        const transport = random() < 0.5 ? 'spdy' : 'websocket';
        const point = DROP_POINTS[Math.floor(random() * DROP_POINTS.length)];
        const rst = random() < 0.5;
        const dying = s.daemon.stderr().indexOf('Node.js v');
        if (dying >= 0) throw new Error(`seed ${seed}: berthd is exiting after #${n}:\n${s.daemon.stderr().slice(Math.max(0, dying - 4000), dying)}`);
        try {
          const url = await execUrl();
          const held: Held = {};
          const client = transport === 'spdy' ? spdyClient(url, point, rst, random, held) : webSocketClient(url, point, rst, random, held);
          await withGuard(client, held, `#${n} ${transport} ${point}`);
        } catch (err) {
          // The server may close first at some points (e.g. a refused half-frame); only berthd's state matters.
          failures.push(`#${n} ${transport} ${point}: ${(err as Error).message}`);
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    // BERTH_STRESS_LOG=<prefix> keeps berthd's log of the run (its exec lifecycle at debug level).
    if (process.env.BERTH_STRESS_LOG) writeFileSync(`${process.env.BERTH_STRESS_LOG}-${seed}.log`, s.daemon.stderr());
    if (failures.length > 0) console.log(`${failures.length} clients failed before dropping:\n${failures.slice(0, 20).join('\n')}`);

    // Alive and serving, over both transports, and the container it exec'd into still runs.
    await expectServing(s, id, 'spdy');
    await expectServing(s, id, 'websocket');
    expect((await s.status(id)).state).toBe('CONTAINER_RUNNING');
    // Every exec process whose client went away was killed.
    expect(await settledProcessCount(s, id, 'sleep 3605')).toBe(0);
    // No session, FIFO or socket left open (a few fds of slack for the daemon's own churn).
    const giveUp = Date.now() + 60_000;
    while (fdCount(pid) > fdsBefore + 4 && Date.now() < giveUp) await new Promise((r) => setTimeout(r, 200));
    expect(fdCount(pid)).toBeLessThanOrEqual(fdsBefore + 4);
    if (failures.length > CONNECTIONS / 2) throw new Error(`seed ${seed}: most clients failed before dropping:\n${failures.slice(0, 20).join('\n')}`);
  });
});

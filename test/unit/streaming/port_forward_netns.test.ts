// portForwardInNetns into a real network namespace: a TCP server listening on 127.0.0.1 inside a
// netns created by the test is reachable through the streaming server, and not from the host.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectInNetns, createNetns, removeNetns } from '../../../internal/sys/netns';
import { portForwardInNetns } from '../../../internal/cri/streaming/runtime';
import { portForward } from '../../harness/streaming_client';
import { startFixture, type Fixture } from './fixture';

const PORT = 47_777;
// An echo server that says where it runs; stays up until killed.
const SERVER = `require('net').createServer(s => s.on('data', d => s.write('netns:' + d))).listen(${PORT}, '127.0.0.1', () => console.log('ready'))`;

function run(cmd: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: 'ignore' });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`${cmd} ${args.join(' ')} exited ${code}`))));
  });
}

describe('port-forward into a network namespace', () => {
  let dir: string;
  let netnsPath: string;
  let server: ChildProcess | undefined;
  let f: Fixture;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'berth-pf-netns-'));
    netnsPath = join(dir, 'netns');
    await createNetns(netnsPath);
    await run('nsenter', [`--net=${netnsPath}`, 'ip', 'link', 'set', 'lo', 'up']);
    const child = spawn('nsenter', [`--net=${netnsPath}`, process.execPath, '-e', SERVER], { stdio: ['ignore', 'pipe', 'inherit'] });
    server = child;
    await new Promise<void>((resolve, reject) => {
      child.stdout?.once('data', () => resolve());
      child.once('close', (code) => reject(new Error(`netns echo server exited ${code}`)));
    });
    f = await startFixture();
    f.runtime.portForward = (opts) => portForwardInNetns(opts.sandboxId, netnsPath, opts.port, opts.stream, opts.signal);
  });

  afterEach(async () => {
    await f?.stop();
    if (server && server.exitCode === null) {
      const gone = new Promise((resolve) => server?.once('close', resolve));
      server.kill('SIGKILL');
      await gone;
    }
    removeNetns(netnsPath);
    rmSync(dir, { recursive: true, force: true });
  });

  it.each(['spdy', 'websocket'] as const)('reaches 127.0.0.1 inside the pod netns over %s', async (transport) => {
    const url = f.server.getPortForward({ pod_sandbox_id: 'sb-netns', port: [PORT] });
    const fwd = await portForward(url, PORT, transport);
    const reply = new Promise<string>((resolve) => fwd.stream.once('data', (d: Buffer) => resolve(d.toString())));
    fwd.stream.write('hi');
    expect(await reply).toBe('netns:hi');
    fwd.close();
  });

  it('the same port is not served on the host (the netns is really separate)', async () => {
    const refused = await new Promise<string>((resolve) => {
      const c = createConnection(PORT, '127.0.0.1', () => {
        c.destroy();
        resolve('connected');
      });
      c.on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? 'error'));
    });
    expect(refused).toBe('ECONNREFUSED');
  });
});

describe('connecting into a network namespace', () => {
  const HANGING_PORT = 47_778;
  // Listens with a backlog of 0 and never accepts: once its queue holds a connection, further SYNs
  // are dropped and connects to it hang until their timeout (a port behind a dropping firewall).
  const NEVER_ACCEPTS = [
    'import socket, time',
    'tcp = socket.socket()',
    `tcp.bind(("127.0.0.1", ${HANGING_PORT}))`,
    'tcp.listen(0)',
    'print("ready", flush=True)',
    'time.sleep(3600)',
  ].join('\n');
  let dir: string;
  let netnsPath: string;
  let listener: ChildProcess | undefined;

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'berth-pf-hang-'));
    netnsPath = join(dir, 'netns');
    await createNetns(netnsPath);
    await run('nsenter', [`--net=${netnsPath}`, 'ip', 'link', 'set', 'lo', 'up']);
    const child = spawn('nsenter', [`--net=${netnsPath}`, 'python3', '-c', NEVER_ACCEPTS], { stdio: ['ignore', 'pipe', 'inherit'] });
    listener = child;
    await new Promise<void>((resolve, reject) => {
      child.stdout?.once('data', () => resolve());
      child.once('close', (code) => reject(new Error(`netns listener exited ${code}`)));
    });
  });

  afterEach(() => {
    if (listener && listener.exitCode === null) listener.kill('SIGKILL');
    removeNetns(netnsPath);
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps the libuv pool free while connects hang (fs calls still answer)', async () => {
    // More hanging connects than the pool has threads (4 unless UV_THREADPOOL_SIZE says otherwise).
    const poolSize = Number(process.env.UV_THREADPOOL_SIZE ?? 4);
    let failed = 0;
    const connects = Array.from({ length: poolSize + 8 }, () => {
      const c = connectInNetns(netnsPath, HANGING_PORT, { timeoutMs: 20_000 });
      void c.then(
        (s) => s.destroy(), // a connect or two fill the listener's queue and succeed
        () => failed++,
      );
      return c;
    });
    // A pool job, queued after the connects: it would wait for pool threads they occupy.
    await stat(dir);
    expect(failed).toBe(0); // no connect timed out first: the fs call never waited for one
    // Ending the listener makes the hanging connects fail fast (RST to the next SYN).
    listener?.kill('SIGKILL');
    await Promise.allSettled(connects);
  }, 60_000);
});

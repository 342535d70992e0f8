// portForwardInNetns into a real network namespace: a TCP server listening on 127.0.0.1 inside a
// netns created by the test is reachable through the streaming server, and not from the host.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createNetns, removeNetns } from '../../../internal/sys/netns';
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
    f.runtime.portForward = (opts) => portForwardInNetns(netnsPath, opts.port, opts.stream, opts.signal);
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

// The real client: kubectl (client-go's remotecommand and portforward) against our streaming
// server, through a minimal fake API server that proxies the upgrade as the API server does.
// kubectl 1.32 execs over WebSocket v5 by default and over SPDY (v4 negotiated) when told to;
// port-forward goes over SPDY portforward.k8s.io.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeApiServer, type FakeApiServer } from './fake_apiserver';
import { startFixture, type Fixture } from './fixture';

const KUBECTL = '/usr/bin/kubectl';
const describeIfKubectl = existsSync(KUBECTL) ? describe : describe.skip;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

describeIfKubectl('kubectl against the streaming server', () => {
  let f: Fixture;
  let api: FakeApiServer;
  let dir: string;
  let kubeconfig: string;
  const started: ChildProcess[] = [];

  beforeEach(async () => {
    f = await startFixture();
    api = await startFakeApiServer(f.server);
    dir = mkdtempSync(join(tmpdir(), 'berth-kubectl-'));
    kubeconfig = join(dir, 'kubeconfig');
    writeFileSync(
      kubeconfig,
      [
        'apiVersion: v1',
        'kind: Config',
        `clusters: [{name: c, cluster: {server: "${api.url}"}}]`,
        'users: [{name: u, user: {}}]',
        'contexts: [{name: x, context: {cluster: c, user: u, namespace: default}}]',
        'current-context: x',
      ].join('\n'),
    );
  });
  afterEach(async () => {
    for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    started.length = 0;
    await api.close();
    await f.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const kubectl = (args: string[], env: Record<string, string> = {}, stdin?: string): Promise<Run> =>
    new Promise((resolve) => {
      const child = spawn(KUBECTL, ['--kubeconfig', kubeconfig, ...args], {
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, ...env },
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      started.push(child);
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      child.stdin.on('error', () => undefined);
      child.stdin.end(stdin ?? '');
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });

  describe.each([
    ['WebSocket v5', {}, 'websocket v5.channel.k8s.io'],
    ['SPDY', { KUBECTL_REMOTE_COMMAND_WEBSOCKETS: 'false' }, 'SPDY/3.1 v5.channel.k8s.io, v4.channel.k8s.io'],
  ])('kubectl exec over %s', (_name, env, upgrade) => {
    it('returns stdout, stderr and the exit code', async () => {
      const run = await kubectl(['exec', 'p1', '--', 'sh', '-c', 'echo out; echo err >&2; exit 3'], env);
      expect(run.stdout).toBe('out\n');
      expect(run.stderr).toContain('err\n');
      expect(run.code).toBe(3);
      expect(api.proxied).toHaveLength(1);
      expect(api.proxied[0]).toContain(upgrade);
    });

    it('passes stdin through and ends it', async () => {
      const input = 'line\n'.repeat(20_000);
      const run = await kubectl(['exec', '-i', 'p1', '--', 'cat'], env, input);
      expect(run.code).toBe(0);
      expect(run.stdout).toBe(input);
    });
  });

  it('kubectl port-forward carries a connection to the pod port (SPDY)', async () => {
    const target: Server = createServer((s: Socket) => s.on('data', (d: Buffer) => s.write(`echo:${d.toString()}`)));
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    const targetPort = (target.address() as { port: number }).port;
    try {
      const child = spawn(KUBECTL, ['--kubeconfig', kubeconfig, 'port-forward', 'p1', `:${targetPort}`], {
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: dir, KUBECTL_PORT_FORWARD_WEBSOCKETS: 'false' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      started.push(child);
      const localPort = await new Promise<number>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (c: Buffer) => {
          out += c.toString();
          const m = /Forwarding from 127\.0\.0\.1:(\d+) ->/.exec(out);
          if (m) resolve(Number(m[1]));
        });
        child.once('close', (code) => reject(new Error(`kubectl port-forward exited ${code}: ${out}`)));
      });
      const reply = await new Promise<string>((resolve, reject) => {
        const conn = createConnection(localPort, '127.0.0.1', () => conn.write('hello'));
        conn.on('data', (d: Buffer) => {
          resolve(d.toString());
          conn.destroy();
        });
        conn.on('error', reject);
      });
      expect(reply).toBe('echo:hello');
      expect(api.proxied).toEqual(['SPDY/3.1 portforward.k8s.io']);
    } finally {
      await new Promise<void>((resolve) => target.close(() => resolve()));
    }
  });
});

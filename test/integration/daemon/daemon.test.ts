// berthd as a user meets it: a real process on a real unix socket, driven over gRPC and berthctl.
import { status as GrpcStatus } from '@grpc/grpc-js';
import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import Database from 'better-sqlite3';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { repoRoot } from '../../../internal/api/cri';
import { callError, criClient, type CriClient } from '../../harness/cri_client';
import { flockHolders } from '../../harness/file_locks';
import { runBerthdToExit, startBerthd, type RunningBerthd } from '../../harness/daemon';
import { PAUSE_IMAGE, testImages } from '../../harness/images';

const execFileP = promisify(execFile);

async function berthctl(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const main = join(repoRoot(), 'dist', 'cmd', 'berthctl', 'main.js');
  try {
    const { stdout, stderr } = await execFileP(process.execPath, [main, ...args]);
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('berthd serving', () => {
  let cniDir: string;
  let daemon: RunningBerthd;
  let client: CriClient;

  beforeAll(async () => {
    cniDir = mkdtempSync(join(tmpdir(), 'berthd-test-cni-'));
    daemon = await startBerthd({ configToml: `[cni]\nconf_dir = "${cniDir}"\n` });
    client = criClient(daemon.socket);
  });

  afterAll(async () => {
    client?.close();
    await daemon?.stop();
    rmSync(cniDir, { recursive: true, force: true });
  });

  it('answers Version', async () => {
    expect(await client.runtime.Version({ version: 'v1' })).toEqual({
      version: '0.1.0',
      runtime_name: 'berth',
      runtime_version: '0.1.0',
      runtime_api_version: 'v1',
    });
  });

  it('reports the runtime ready and the network not ready until a CNI config appears', async () => {
    const before = await client.runtime.Status({ verbose: false });
    expect(before.status?.conditions).toEqual([
      { type: 'RuntimeReady', status: true, reason: '', message: '' },
      {
        type: 'NetworkReady',
        status: false,
        reason: 'NetworkPluginNotReady',
        message: expect.stringMatching(/^Network plugin returns error: cni plugin not initialized/),
      },
    ]);
    expect(before.info).toEqual({});
    expect(before.runtime_handlers.map((h) => h.name)).toEqual(['', 'runc']);
    const verbose = (await client.runtime.Status({ verbose: true })).info;
    expect(verbose.lastCNILoadStatus).toMatch(/^cni plugin not initialized/);
    expect(verbose['lastCNILoadStatus.default']).toBe(verbose.lastCNILoadStatus);
    expect((JSON.parse(verbose.cniconfig!) as { Networks: Array<{ IFName: string }> }).Networks.map((n) => n.IFName)).toEqual(['lo']);

    writeFileSync(join(cniDir, '10-test.conflist'), JSON.stringify({ cniVersion: '1.0.0', name: 't', plugins: [{ type: 'loopback' }] }));
    const after = await client.runtime.Status({ verbose: false });
    expect(after.status?.conditions.find((c) => c.type === 'NetworkReady')?.status).toBe(true);
  });

  it('shows its configuration in a verbose Status', async () => {
    const res = await client.runtime.Status({ verbose: true });
    const config = JSON.parse(res.info.config!) as { root: string; cni: { conf_dir: string } };
    expect(config.root).toBe(daemon.root);
    expect(config.cni.conf_dir).toBe(cniDir);
    // As go-cni's ConfigResult in containerd's answer, for `crictl info` and the tools reading it.
    expect(JSON.parse(res.info.cniconfig!)).toMatchObject({
      PluginConfDir: cniDir,
      PluginMaxConfNum: 1,
      Prefix: 'eth',
      Networks: [
        { IFName: 'lo', Config: { Name: 'cni-loopback', Plugins: [{ Network: { type: 'loopback', ipam: {}, dns: {} } }] } },
        { IFName: 'eth0', Config: { Name: 't', CNIVersion: '1.0.0', Plugins: [{ Network: { type: 'loopback', ipam: {}, dns: {} } }] } },
      ],
    });
    expect(res.info.lastCNILoadStatus).toBe('OK');
  });

  it('reports the cgroupfs driver for a runc handler without SystemdCgroup', async () => {
    expect(await client.runtime.RuntimeConfig({})).toEqual({ linux: { cgroup_driver: 'CGROUPFS' } });
  });

  it('answers UNIMPLEMENTED, naming the method, for RPCs berth lacks', async () => {
    const unary = await callError(client.runtime.CheckpointContainer({ container_id: 'x', location: '/nowhere' }));
    expect(unary.code).toBe(GrpcStatus.UNIMPLEMENTED);
    expect(unary.details).toBe('runtime.v1.RuntimeService/CheckpointContainer is not implemented by berth');

    const stream = await callError(client.runtime.StreamPodSandboxMetrics({}));
    expect(stream.code).toBe(GrpcStatus.UNIMPLEMENTED);
    expect(stream.details).toBe('runtime.v1.RuntimeService/StreamPodSandboxMetrics is not implemented by berth');
  });

  it('serves its socket with mode 0600', () => {
    const st = statSync(daemon.socket);
    expect(st.isSocket()).toBe(true);
    expect(st.mode & 0o777).toBe(0o600);
  });

  it('keeps its metadata database under root', () => {
    expect(existsSync(join(daemon.root, 'metadata.db'))).toBe(true);
  });

  it('refuses a second berthd on the same socket and keeps serving', async () => {
    const other = mkdtempSync(join(tmpdir(), 'berthd-second-'));
    try {
      const run = await runBerthdToExit({ dir: other, socket: daemon.socket });
      expect(run.code).not.toBe(0);
      expect(run.stderr).toContain(`berthd: address ${daemon.socket}: another server (berthd?) is already serving on this socket`);
      // It touched nothing: no root of its own, no database.
      expect(existsSync(join(other, 'root'))).toBe(false);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
    expect((await client.runtime.Version({})).runtime_name).toBe('berth');
  });

  it('refuses a second berthd on the same root with another socket', async () => {
    const other = mkdtempSync(join(tmpdir(), 'berthd-sameroot-'));
    try {
      const run = await runBerthdToExit({ dir: other, args: ['--root', daemon.root] });
      expect(run.code).not.toBe(0);
      expect(run.stderr).toContain(`root ${daemon.root} is in use by berthd pid ${daemon.pid}`);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
    expect((await client.runtime.Version({})).runtime_name).toBe('berth');
  });

  it('is reachable with berthctl version and status', async () => {
    const v = await berthctl('--address', daemon.socket, 'version');
    expect(v.code).toBe(0);
    expect(v.stdout).toBe('Version:  0.1.0\nRuntimeName:  berth\nRuntimeVersion:  0.1.0\nRuntimeApiVersion:  v1\n');

    const s = await berthctl('--address', daemon.socket, 'status');
    expect(s.code).toBe(0);
    const parsed = JSON.parse(s.stdout) as { status: { conditions: Array<{ type: string; status: boolean }> } };
    expect(parsed.status.conditions.map((c) => c.type)).toEqual(['RuntimeReady', 'NetworkReady']);
  });

  it('berthctl images import goes to the daemon, which names a missing archive', async () => {
    const r = await berthctl('--address', daemon.socket, 'images', 'import', '/nonexistent.tar', '--name', 'x:1');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/\/nonexistent\.tar does not exist \(NOT_FOUND\)/);
  });
});

describe('berthd lifecycle', () => {
  it('exits 0 on SIGTERM and removes its sockets', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'berthd-term-'));
    try {
      const d = await startBerthd({ dir });
      const events = `${d.socket}.ttrpc`; // the shims' TTRPC_ADDRESS
      expect(existsSync(d.socket)).toBe(true);
      expect(statSync(events).isSocket()).toBe(true);
      const lock = join(d.root, 'berthd.lock');
      expect(flockHolders(lock)).toEqual([d.pid]);
      expect(await d.stop()).toEqual({ code: 0, signal: null });
      expect(existsSync(d.socket)).toBe(false);
      expect(existsSync(events)).toBe(false);
      // The root lock ended with the process; its file stays, as bolt's meta.db does.
      expect(flockHolders(lock)).toEqual([]);
      // The database is left as bolt's is at containerd's exit: its WAL not checkpointed (see below).
      expect(existsSync(join(d.root, 'metadata.db'))).toBe(true);
      expect(statSync(join(d.root, 'metadata.db-wal')).size).toBeGreaterThan(0);
      const line = d.stderr().split('\n').find((l) => l.includes('"msg":"berthd stopped"'));
      expect(line).toBeDefined();
      // Its phases: the calls drained, then the rest undone.
      expect(JSON.parse(line!)).toMatchObject({ drained: false, drainMs: expect.any(Number), undoMs: expect.any(Number) });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('has what it committed before a SIGTERM after the restart, its WAL read back', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'berthd-wal-'));
    const running: RunningBerthd[] = [];
    try {
      const first = await startBerthd({ dir });
      running.push(first);
      const { pauseOci } = await testImages();
      expect(await berthctl('--address', first.socket, 'images', 'import', pauseOci)).toMatchObject({ code: 0 });
      expect(await first.stop()).toEqual({ code: 0, signal: null });
      expect(statSync(join(first.root, 'metadata.db-wal')).size).toBeGreaterThan(0);

      const next = await startBerthd({ dir });
      running.push(next);
      const c = criClient(next.socket);
      try {
        const { images } = await c.image.ListImages({});
        expect(images.flatMap((i) => i.repo_tags)).toEqual([PAUSE_IMAGE]);
      } finally {
        c.close();
      }
      expect(await next.stop()).toEqual({ code: 0, signal: null });
    } finally {
      for (const d of running) await d.kill();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses to start on a metadata database with a damaged page that recovery never reads, naming the file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'berthd-corrupt-'));
    try {
      const first = await startBerthd({ dir });
      const { pauseOci } = await testImages();
      expect(await berthctl('--address', first.socket, 'images', 'import', pauseOci)).toMatchObject({ code: 0 });
      expect(await first.stop()).toEqual({ code: 0, signal: null });
      // The WAL folded into the file, as an operator's sqlite3 does; then the images table's first page garbled.
      const path = join(first.root, 'metadata.db');
      const plain = new Database(path);
      plain.pragma('wal_checkpoint(TRUNCATE)');
      const { rootpage } = plain.prepare("SELECT rootpage FROM sqlite_master WHERE name = 'images'").get() as { rootpage: number };
      const pageSize = plain.pragma('page_size', { simple: true }) as number;
      plain.close();
      const fd = openSync(path, 'r+');
      writeSync(fd, Buffer.alloc(pageSize, 0xa5), 0, pageSize, (rootpage - 1) * pageSize);
      closeSync(fd);

      // Before, it served, and then failed every image call and RunPodSandbox with "database disk image is malformed".
      const run = await runBerthdToExit({ dir }, 20_000);
      expect(run).toMatchObject({ code: 1, signal: null });
      expect(run.stderr).toContain(`berthd: metadata database ${path} is corrupt: Tree `);
      expect(run.stderr).toMatch(/; restore it from a backup or move it away\n$/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  /** A berthd (at debug level: every call logs) and a client of it; then SIGTERM must exit 0. */
  async function withBerthd(run: (d: RunningBerthd, c: CriClient) => Promise<void>): Promise<void> {
    const d = await startBerthd();
    try {
      const c = criClient(d.socket);
      try {
        await run(d, c);
      } finally {
        c.close();
      }
      expect(await d.stop()).toEqual({ code: 0, signal: null });
    } finally {
      await d.kill();
    }
  }

  it('answers SIGUSR1 with a diagnostic report, not an open inspector', () =>
    withBerthd(async (d, c) => {
      const report = join(d.state, 'berthd-report.json');
      process.kill(d.pid, 'SIGUSR1');
      for (let waited = 0; !existsSync(report) && waited < 20_000; waited += 50) await new Promise((r) => setTimeout(r, 50));
      expect(statSync(report).mode & 0o777).toBe(0o600); // it holds berthd's environment
      const parsed = JSON.parse(readFileSync(report, 'utf8')) as { header: { processId: number } };
      expect(parsed.header.processId).toBe(d.pid);
      const line = d.stderr().split('\n').find((l) => l.includes('"msg":"diagnostic report (SIGUSR1)"'));
      expect(JSON.parse(line!)).toMatchObject({ report, rssBytes: expect.any(Number), activeHandles: expect.any(Object) });
      // Node's default for SIGUSR1 opens an unauthenticated inspector on 127.0.0.1:9229 and says so.
      expect(d.stderr()).not.toMatch(/Debugger listening|inspector/i);
      expect((await c.runtime.Version({})).runtime_name).toBe('berth');
    }));

  it('keeps serving, and stops on SIGTERM, once the reader of its stderr is gone', () =>
    withBerthd(async (d, c) => {
      d.closeStderr();
      // Each call logs; the first failed write makes berthd drop its log lines from then on.
      for (let i = 0; i < 5; i++) expect((await c.runtime.Version({})).runtime_name).toBe('berth');
      expect((await callError(c.runtime.ContainerStatus({ container_id: 'absent' }))).code).toBe(GrpcStatus.NOT_FOUND);
      expect((await c.runtime.Version({})).runtime_name).toBe('berth');
    }));

  it('ends an open GetContainerEvents stream with UNAVAILABLE on SIGTERM instead of waiting out the grace period', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'berthd-events-'));
    try {
      const d = await startBerthd({ dir });
      const c = criClient(d.socket);
      try {
        const events = c.raw.runtime.GetContainerEvents({});
        const ended = new Promise<{ code?: number; details?: string }>((resolve) => events.once('error', resolve));
        events.on('data', () => undefined);
        // Same connection, sent after the stream's headers: answered once the stream is open.
        await c.runtime.Version({});
        expect(await d.stop()).toEqual({ code: 0, signal: null });
        expect(await ended).toMatchObject({ code: GrpcStatus.UNAVAILABLE, details: expect.stringContaining('berthd is stopping') });
        expect(d.stderr()).not.toContain('cutting them off');
      } finally {
        c.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('cuts off a call still running after the grace period and exits 0 with the client still connected', async () => {
    // A "registry" that accepts and never answers: the pull waits on it past berthd's 10 s grace.
    const held: Socket[] = [];
    const stalled = createServer((socket) => held.push(socket));
    stalled.listen(0, '127.0.0.1');
    await once(stalled, 'listening');
    const dir = mkdtempSync(join(tmpdir(), 'berthd-cut-'));
    try {
      const d = await startBerthd({ dir });
      const c = criClient(d.socket);
      try {
        const reached = once(stalled, 'connection');
        const pull = callError(c.image.PullImage({ image: { image: `127.0.0.1:${(stalled.address() as AddressInfo).port}/stalled:1` } }));
        await reached;
        expect(await d.stop()).toEqual({ code: 0, signal: null });
        expect(d.stderr()).toContain('cutting them off');
        expect((await pull).code).toBe(GrpcStatus.UNAVAILABLE);
        expect(existsSync(d.socket)).toBe(false);
      } finally {
        c.close();
      }
    } finally {
      for (const socket of held) socket.destroy();
      stalled.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 40_000);

  it("logs its start-up's phases and CPU time with \"berthd serving\"", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'berthd-phases-'));
    try {
      const d = await startBerthd({ dir });
      const line = d.stderr().split('\n').find((l) => l.includes('"msg":"berthd serving"'));
      expect(line).toBeDefined();
      const serving = JSON.parse(line!) as Record<string, unknown>;
      for (const phase of ['loadedMs', 'dbMs', 'subsystemsMs', 'recoveryMs', 'serverMs', 'sinceExecMs']) {
        expect({ phase, ms: serving[phase] }).toEqual({ phase, ms: expect.any(Number) });
      }
      // Node's own start-up alone takes CPU: a zero would mean the figure is not measured.
      expect(serving.cpuMs).toBeGreaterThan(0);
      expect(await d.stop()).toEqual({ code: 0, signal: null });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('replaces the stale socket of a berthd that was killed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'berthd-stale-'));
    try {
      const crashed = await startBerthd({ dir });
      expect(await crashed.kill()).toEqual({ code: null, signal: 'SIGKILL' });
      expect(statSync(crashed.socket).isSocket()).toBe(true);

      const next = await startBerthd({ dir });
      const c = criClient(next.socket);
      try {
        expect((await c.runtime.Version({})).runtime_name).toBe('berth');
      } finally {
        c.close();
      }
      expect(await next.stop()).toEqual({ code: 0, signal: null });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reports the systemd driver when the default runtime uses SystemdCgroup', async () => {
    const d = await startBerthd({ configToml: '[cri.runtimes.runc.options]\nSystemdCgroup = true\n' });
    const c = criClient(d.socket);
    try {
      expect(await c.runtime.RuntimeConfig({})).toEqual({ linux: { cgroup_driver: 'SYSTEMD' } });
    } finally {
      c.close();
      await d.stop();
    }
  });

  it('exits 1 on a bad config, naming the key path, and creates nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'berthd-badconf-'));
    try {
      const run = await runBerthdToExit({ dir, configToml: '[cri.runtimes.runc.options]\nBinaryName = 5\n' });
      expect(run.code).toBe(1);
      expect(run.stderr).toBe(
        `berthd: config ${join(dir, 'berth.toml')}: cri.runtimes.runc.options.BinaryName: expected string, got number\n`,
      );
      expect(existsSync(join(dir, 'berth.sock'))).toBe(false);
      expect(existsSync(join(dir, 'root'))).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('does not start when the streaming server cannot listen on its address (one the host lacks), and leaves no socket', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'berthd-streamaddr-'));
    try {
      // 192.0.2.1: TEST-NET-1 (RFC 5737), on no host's interfaces.
      const run = await runBerthdToExit({ dir, configToml: '[cri]\nstream_server_address = "192.0.2.1"\n' });
      expect(run.code).toBe(1);
      expect(run.stderr).toContain('EADDRNOTAVAIL');
      expect(existsSync(join(dir, 'berth.sock'))).toBe(false);
      expect(existsSync(join(dir, 'berth.sock.ttrpc'))).toBe(false); // the shims' events socket, made before
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses unknown flags with usage', async () => {
    const run = await runBerthdToExit({ args: ['--bogus'] });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('usage: berthd');
    expect(run.stderr).toContain("Unknown option '--bogus'");
  });
});

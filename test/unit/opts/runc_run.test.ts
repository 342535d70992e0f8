// The generated specs are runc-valid: run a pause-like sandbox and a container joining it with
// real runc (RuntimeDefault seccomp on both), over a busybox rootfs, and check what the container
// sees. Everything lives under a temp dir with its own runc state root and cgroup parent.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { buildContainerSpec } from '../../../internal/cri/opts/container_spec';
import { hostFromSystem } from '../../../internal/cri/opts/host_access';
import { buildSandboxFiles, DEFAULT_HOSTS } from '../../../internal/cri/opts/sandbox_files';
import { buildSandboxSpec } from '../../../internal/cri/opts/sandbox_spec';
import type { RuntimeOptions } from '../../../internal/cri/opts/types';
import { userLookupFromImage } from '../../../internal/cri/opts/user';
import type { Spec } from '../../../internal/oci/spec';
import { containerConfig, GROUP, PASSWD, podConfig, resources } from './fixtures';

const canRun = process.getuid?.() === 0 && fs.existsSync('/bin/busybox') && spawnSync('runc', ['--version']).status === 0;
const maybe = canRun ? describe : describe.skip;

function makeRootfs(dir: string): void {
  for (const d of ['bin', 'etc', 'proc', 'sys', 'dev', 'tmp']) fs.mkdirSync(path.join(dir, d), { recursive: true });
  fs.copyFileSync('/bin/busybox', path.join(dir, 'bin/busybox'));
  fs.chmodSync(path.join(dir, 'bin/busybox'), 0o755);
  for (const applet of ['sh', 'sleep', 'cat', 'echo', 'id', 'hostname', 'grep', 'ls', 'tr']) fs.symlinkSync('busybox', path.join(dir, 'bin', applet));
  fs.writeFileSync(path.join(dir, 'etc/passwd'), PASSWD);
  fs.writeFileSync(path.join(dir, 'etc/group'), GROUP);
}

function writeBundle(dir: string, spec: Spec): void {
  makeRootfs(path.join(dir, 'rootfs'));
  fs.writeFileSync(path.join(dir, 'config.json'), JSON.stringify(spec, null, 2));
}

maybe('generated specs under real runc', () => {
  const suffix = `${process.pid}-${Date.now().toString(36)}`;
  const cgroupParent = `/berth-opts-${suffix}`;
  const sandboxId = `berth-opts-sb-${suffix}`;
  const containerId = `berth-opts-c-${suffix}`;
  let tmp = '';
  let stateRoot = '';
  let sandboxPid = 0;
  let paths = { hostnamePath: '', hostsPath: '', resolvPath: '', shmPath: '' };
  const runc = (...args: string[]) => spawnSync('runc', ['--root', stateRoot, ...args], { encoding: 'utf8', timeout: 30_000 });

  beforeAll(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'berth-opts-runc-'));
    stateRoot = path.join(tmp, 'state');
  });

  afterAll(() => {
    if (tmp === '') return;
    for (const id of [containerId, `${containerId}-priv`, sandboxId]) runc('delete', '--force', id);
    for (const ctrl of fs.existsSync('/sys/fs/cgroup') ? fs.readdirSync('/sys/fs/cgroup') : []) {
      const dir = path.join('/sys/fs/cgroup', ctrl, cgroupParent);
      if (fs.existsSync(dir)) fs.rmdirSync(dir);
    }
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('runs busybox in a container joining the sandbox namespaces', () => {
    const host = hostFromSystem();
    const runtime: RuntimeOptions = { namespace: 'berth-test', restrictOomScoreAdj: true, systemdCgroup: false, disableHugetlbController: true, cgroupParent };
    const sb = path.join(tmp, 'sandbox-files');
    fs.mkdirSync(path.join(sb, 'shm'), { recursive: true });
    const pod = podConfig({}, { seccomp: { profile_type: 'RuntimeDefault', localhost_ref: '' } });
    pod.linux!.cgroup_parent = '';
    const files = buildSandboxFiles(pod, 'node');
    paths = { hostnamePath: path.join(sb, 'hostname'), hostsPath: path.join(sb, 'hosts'), resolvPath: path.join(sb, 'resolv.conf'), shmPath: path.join(sb, 'shm') };
    fs.writeFileSync(paths.hostnamePath, files.hostname);
    fs.writeFileSync(paths.hostsPath, DEFAULT_HOSTS);
    fs.writeFileSync(paths.resolvPath, 'nameserver 127.0.0.1\n');
    const users = userLookupFromImage((p) => ({ '/etc/passwd': PASSWD, '/etc/group': GROUP })[p]);

    const sandboxSpec = buildSandboxSpec({
      id: sandboxId,
      config: pod,
      imageConfig: { Entrypoint: ['/bin/sleep'], Cmd: ['3600'], User: '65534:65534' },
      imageName: 'test/pause',
      runtime,
      sandboxPaths: paths,
      userLookup: users,
      host,
    });
    writeBundle(path.join(tmp, 'sandbox'), sandboxSpec);
    const started = spawnSync('runc', ['--root', stateRoot, 'run', '--detach', '--bundle', path.join(tmp, 'sandbox'), sandboxId], { stdio: 'ignore', timeout: 30_000 });
    expect(started.status).toBe(0);
    const state = JSON.parse(runc('state', sandboxId).stdout) as { pid: number; status: string };
    expect(state.status).toBe('running');
    sandboxPid = state.pid;

    const cfg = containerConfig(
      {
        command: ['/bin/sh', '-c'],
        args: ['echo hello; id; hostname; cat /etc/hostname; tr "\\0" " " < /proc/1/cmdline; echo; grep Seccomp: /proc/self/status; echo $HOSTNAME $GREETING; cat /sys/fs/cgroup/memory/memory.limit_in_bytes 2>/dev/null || cat /sys/fs/cgroup/memory.max'],
        envs: [{ key: 'GREETING', value: Buffer.from('hi-there') }],
      },
      { run_as_user: { value: '1000' }, seccomp: { profile_type: 'RuntimeDefault', localhost_ref: '' }, namespace_options: { network: 'POD', pid: 'POD', ipc: 'POD', target_id: '', userns_options: null } },
      resources({ memory_limit_in_bytes: String(64 * 1024 * 1024), cpu_period: '100000', cpu_quota: '50000', cpu_shares: '256' }),
    );
    const containerSpec = buildContainerSpec({
      id: containerId,
      sandboxId,
      containerConfig: cfg,
      sandboxConfig: pod,
      imageConfig: { Env: ['PATH=/bin'] },
      imageName: 'test/busybox',
      sandboxPid: state.pid,
      runtime,
      sandboxPaths: paths,
      userLookup: users,
      host,
    });
    writeBundle(path.join(tmp, 'container'), containerSpec);
    const run = runc('run', '--bundle', path.join(tmp, 'container'), containerId);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const lines = run.stdout.trim().split('\n');
    expect(lines[0]).toBe('hello');
    expect(lines[1]).toMatch(/^uid=1000\(alice\) gid=1000\(alice\) groups=10\(wheel\),29\(audio\),1000\(alice\)$/);
    expect(lines[2]).toBe('web-0'); // the sandbox's UTS namespace
    expect(lines[3]).toBe('web-0'); // the sandbox's /etc/hostname file
    expect(lines[4]?.trim()).toBe('/bin/sleep 3600'); // PID 1 is the sandbox's process
    expect(lines[5]).toMatch(/^Seccomp:\s+2$/);
    expect(lines[6]).toBe('web-0 hi-there');
    expect(lines[7]).toBe(String(64 * 1024 * 1024)); // the container's own memory cgroup
  });

  it('runs a privileged container with the host devices and berthd capabilities', () => {
    expect(sandboxPid).toBeGreaterThan(0);
    const host = hostFromSystem();
    const runtime: RuntimeOptions = { namespace: 'berth-test', restrictOomScoreAdj: true, systemdCgroup: false, disableHugetlbController: true, cgroupParent };
    const pod = podConfig({}, { privileged: true });
    pod.linux!.cgroup_parent = '';
    const id = `${containerId}-priv`;
    const spec = buildContainerSpec({
      id,
      sandboxId,
      containerConfig: containerConfig({ command: ['/bin/sh', '-c', 'grep CapEff: /proc/self/status; ls /dev/null /dev/loop-control'] }, { privileged: true }),
      sandboxConfig: pod,
      imageConfig: { Env: ['PATH=/bin'] },
      imageName: 'test/busybox',
      sandboxPid,
      runtime,
      sandboxPaths: paths,
      userLookup: userLookupFromImage(() => undefined),
      host,
    });
    writeBundle(path.join(tmp, 'privileged'), spec);
    const run = runc('run', '--bundle', path.join(tmp, 'privileged'), id);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const ownCapEff = fs.readFileSync('/proc/self/status', 'utf8').split('\n').find((l) => l.startsWith('CapEff:'));
    expect(run.stdout.split('\n')[0]).toBe(ownCapEff);
    expect(run.stdout).toContain('/dev/loop-control'); // a host device runc adds only when asked
  });
});

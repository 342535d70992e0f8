// Hostile input at the edge: every malformed CRI request is answered INVALID_ARGUMENT or NOT_FOUND
// with a message naming the field (or ID) that was wrong, never UNKNOWN, never a crash, and leaves
// nothing behind.
import { status as GrpcStatus } from '@grpc/grpc-js';
import type { ContainerConfig } from '../../../internal/api/gen/runtime/v1/ContainerConfig';
import type { LinuxContainerResources } from '../../../internal/api/gen/runtime/v1/LinuxContainerResources';
import type { PodSandboxConfig } from '../../../internal/api/gen/runtime/v1/PodSandboxConfig';
import { callError } from '../../harness/cri_client';
import { createBerthEnv, deadline, SLEEPER, type BerthEnv } from '../recovery/berth_env';
import { leaks } from '../recovery/host_state';

jest.setTimeout(180_000);

const { INVALID_ARGUMENT, NOT_FOUND } = GrpcStatus;

describe('hostile CRI requests', () => {
  let env: BerthEnv;
  let podId: string;
  let pod: PodSandboxConfig;
  let runningId: string;

  async function rejected(p: Promise<unknown>, code: number, mentions: string | RegExp): Promise<void> {
    const err = await callError(p);
    expect(`${GrpcStatus[err.code]}: ${err.details}`).toMatch(new RegExp(`^${GrpcStatus[code]}: `));
    expect(err.details).toMatch(mentions);
  }

  const runp = (config: PodSandboxConfig | null, runtime_handler = '') =>
    env.client.runtime.RunPodSandbox({ config, runtime_handler }, deadline());
  const create = (config: ContainerConfig | null, sandboxId = podId) =>
    env.client.runtime.CreateContainer({ pod_sandbox_id: sandboxId, config, sandbox_config: pod }, deadline());
  const withResources = (resources: LinuxContainerResources): ContainerConfig =>
    env.containerConfig(pod, 'res', SLEEPER, { linux: { resources } });

  beforeAll(async () => {
    env = await createBerthEnv();
    await env.start();
    ({ podId, config: pod } = await env.runPod('target'));
    runningId = await env.create(podId, pod, 'running', SLEEPER);
    await env.client.runtime.StartContainer({ container_id: runningId });
  });

  afterAll(async () => {
    await env?.close();
  });

  describe('RunPodSandbox', () => {
    const cases: [string, () => PodSandboxConfig | null, number, RegExp, string?][] = [
      ['no config', () => null, INVALID_ARGUMENT, /sandbox config is required/],
      ['no metadata', () => ({ ...env.podConfig('x'), metadata: null }), INVALID_ARGUMENT, /metadata is required/],
      ['empty name', () => env.podConfig(''), INVALID_ARGUMENT, /metadata\.name/],
      ['a 254-character name', () => env.podConfig('a'.repeat(254), { hostname: 'h' }), INVALID_ARGUMENT, /metadata\.name is 254 characters/],
      ['a 254-character namespace', () => ({ ...env.podConfig('ns'), metadata: { name: 'ns', namespace: 'n'.repeat(254), uid: 'u', attempt: 0 } }), INVALID_ARGUMENT, /metadata\.namespace/],
      ['a name with "/"', () => env.podConfig('../../etc', { hostname: 'h' }), INVALID_ARGUMENT, /metadata\.name/],
      ['a 65-character hostname', () => env.podConfig('host', { hostname: 'h'.repeat(65) }), INVALID_ARGUMENT, /hostname/],
      ['a hostname with a newline', () => env.podConfig('host2', { hostname: 'a\nb' }), INVALID_ARGUMENT, /hostname/],
      ['a relative log_directory', () => env.podConfig('logs', { log_directory: 'var/log/pods/x' }), INVALID_ARGUMENT, /log_directory/],
      ['a log_directory with ".."', () => env.podConfig('logs2', { log_directory: '/var/log/../../etc' }), INVALID_ARGUMENT, /log_directory/],
      ['a cgroup_parent with ".."', () => env.podConfig('cg', { linux: { cgroup_parent: '/../../x' } }), INVALID_ARGUMENT, /cgroup_parent/],
      ['a DNS server with a newline', () => env.podConfig('dns', { dns_config: { servers: ['1.1.1.1\nnameserver 6.6.6.6'], searches: [], options: [] } }), INVALID_ARGUMENT, /dns_config/],
      ['a host port out of range', () => env.podConfig('port', { port_mappings: [{ protocol: 'TCP', container_port: 80, host_port: 70000, host_ip: '' }] }), INVALID_ARGUMENT, /port_mappings\[0\]\.host_port/],
      ['a negative container port', () => env.podConfig('port2', { port_mappings: [{ protocol: 'TCP', container_port: -1, host_port: 0, host_ip: '' }] }), INVALID_ARGUMENT, /port_mappings\[0\]\.container_port/],
      ['negative overhead cpu shares', () => env.podConfig('ovh', { linux: { overhead: { cpu_shares: '-2' } } }), INVALID_ARGUMENT, /overhead\.cpu_shares/],
    ];
    it.each(cases)('refuses %s', async (_what, config, code, mentions) => {
      await rejected(runp(config()), code, mentions);
    });

    it('refuses an unknown runtime handler, naming it', async () => {
      await rejected(runp(env.podConfig('rt'), 'no-such-runtime'), NOT_FOUND, /runtime_handler "no-such-runtime"/);
    });
  });

  describe('CreateContainer', () => {
    const cases: [string, () => ContainerConfig | null, number, RegExp][] = [
      ['no config', () => null, INVALID_ARGUMENT, /container config is required/],
      ['no metadata', () => ({ ...env.containerConfig(pod, 'x', SLEEPER), metadata: null }), INVALID_ARGUMENT, /metadata is required/],
      ['empty name', () => env.containerConfig(pod, '', SLEEPER), INVALID_ARGUMENT, /metadata\.name/],
      ['a 254-character name', () => env.containerConfig(pod, 'c'.repeat(254), SLEEPER), INVALID_ARGUMENT, /metadata\.name is 254 characters/],
      ['a name with a newline', () => env.containerConfig(pod, 'a\nb', SLEEPER), INVALID_ARGUMENT, /metadata\.name/],
      ['no image', () => ({ ...env.containerConfig(pod, 'noimg', SLEEPER), image: null }), INVALID_ARGUMENT, /image\.image/],
      ['a log_path with ".."', () => env.containerConfig(pod, 'lp', SLEEPER, { log_path: '../../../../etc/cron.d/x' }), INVALID_ARGUMENT, /log_path/],
      ['a log_path naming a directory', () => env.containerConfig(pod, 'lp2', SLEEPER, { log_path: 'dir/' }), INVALID_ARGUMENT, /log_path "dir\/" must name a file/],
      ['a log_path with NUL', () => env.containerConfig(pod, 'lp3', SLEEPER, { log_path: 'a\u0000b' }), INVALID_ARGUMENT, /log_path .* must not contain NUL/],
      ['a log_path segment over 255 bytes', () => env.containerConfig(pod, 'lp4', SLEEPER, { log_path: 'x'.repeat(256) }), INVALID_ARGUMENT, /log_path has a path segment longer than 255/],
      ['a command with NUL', () => env.containerConfig(pod, 'nul', ['sh', 'a\u0000b']), INVALID_ARGUMENT, /command\[1\] must not contain NUL/],
      ['an env value with NUL', () => env.containerConfig(pod, 'envnul', SLEEPER, { envs: [{ key: 'A', value: Buffer.from('x\u0000y') }] }), INVALID_ARGUMENT, /envs\[0\]\.value/],
      ['a mount with a relative host path', () => env.containerConfig(pod, 'm1', SLEEPER, { mounts: [{ container_path: '/data', host_path: 'etc' }] }), INVALID_ARGUMENT, /mounts\[0\]\.host_path/],
      ['a mount host path with ".."', () => env.containerConfig(pod, 'm2', SLEEPER, { mounts: [{ container_path: '/data', host_path: '/tmp/../etc' }] }), INVALID_ARGUMENT, /mounts\[0\]\.host_path/],
      ['a mount container path with ".."', () => env.containerConfig(pod, 'm3', SLEEPER, { mounts: [{ container_path: '/data/../../x', host_path: '/tmp' }] }), INVALID_ARGUMENT, /mounts\[0\]\.container_path/],
      ['a relative working_dir', () => env.containerConfig(pod, 'wd', SLEEPER, { working_dir: 'tmp' }), INVALID_ARGUMENT, /working_dir/],
      ['an env key with "="', () => env.containerConfig(pod, 'envs', SLEEPER, { envs: [{ key: 'A=B', value: Buffer.from('c') }] }), INVALID_ARGUMENT, /envs\[0\]\.key/],
      ['negative cpu shares', () => withResources({ cpu_shares: '-1' }), INVALID_ARGUMENT, /cpu_shares/],
      ['a negative memory limit', () => withResources({ memory_limit_in_bytes: '-1' }), INVALID_ARGUMENT, /memory_limit_in_bytes/],
      ['a cpu_period below 1000', () => withResources({ cpu_period: '999' }), INVALID_ARGUMENT, /cpu_period/],
      ['a cpu_period above 1s', () => withResources({ cpu_period: '1000001' }), INVALID_ARGUMENT, /cpu_period/],
      ['an oom_score_adj of 5000', () => withResources({ oom_score_adj: '5000' }), INVALID_ARGUMENT, /oom_score_adj/],
      ['a device with bad permissions', () => env.containerConfig(pod, 'dev', SLEEPER, { devices: [{ container_path: '/dev/x', host_path: '/dev/null', permissions: 'rwx' }] }), INVALID_ARGUMENT, /devices\[0\]\.permissions/],
      ['a missing image', () => env.containerConfig(pod, 'img', SLEEPER, { image: { image: 'berth.test/nope:1' } }), NOT_FOUND, /berth\.test\/nope:1/],
    ];
    it.each(cases)('refuses %s', async (_what, config, code, mentions) => {
      await rejected(create(config()), code, mentions);
    });

    it('refuses an empty, unknown or ambiguous sandbox ID', async () => {
      await rejected(create(env.containerConfig(pod, 'a', SLEEPER), ''), INVALID_ARGUMENT, /sandbox ID must not be empty/);
      await rejected(create(env.containerConfig(pod, 'a', SLEEPER), 'f'.repeat(64)), NOT_FOUND, /sandbox "f{64}" not found/);
    });

    it('leaves no name reserved and nothing on disk after all those refusals', async () => {
      const id = await env.create(podId, pod, 'res', SLEEPER);
      const listed = (await env.client.runtime.ListContainers({ filter: { pod_sandbox_id: podId } })).containers.map((c) => c.id).sort();
      expect(listed).toEqual([runningId, id].sort());
      await env.client.runtime.RemoveContainer({ container_id: id });
      expect((await env.client.runtime.ListPodSandbox({})).items.map((p) => p.id)).toEqual([podId]);
      expect(leaks(env.host())).toEqual([]);
    });
  });

  describe('verbs on IDs', () => {
    it('answers NOT_FOUND for IDs that match nothing, INVALID_ARGUMENT for empty ones', async () => {
      const ghost = '0123456789abcdef'.repeat(4);
      const r = env.client.runtime;
      await rejected(r.StartContainer({ container_id: ghost }), NOT_FOUND, new RegExp(`container "${ghost}" not found`));
      await rejected(r.ContainerStatus({ container_id: ghost, verbose: false }), NOT_FOUND, /not found/);
      await rejected(r.PodSandboxStatus({ pod_sandbox_id: ghost, verbose: false }), NOT_FOUND, /not found/);
      await rejected(r.ExecSync({ container_id: ghost, cmd: ['true'], timeout: '1' }), NOT_FOUND, /not found/);
      await rejected(r.UpdateContainerResources({ container_id: ghost, linux: {} }), NOT_FOUND, /not found/);
      // Stopping or removing what is not there is done already (kubelet retries; critest 1.32 checks stops).
      await r.StopContainer({ container_id: ghost, timeout: '0' });
      await r.StopPodSandbox({ pod_sandbox_id: ghost });
      await r.RemoveContainer({ container_id: ghost });
      await r.RemovePodSandbox({ pod_sandbox_id: ghost });
      await rejected(r.StartContainer({ container_id: '' }), INVALID_ARGUMENT, /container ID must not be empty/);
      await rejected(r.ContainerStatus({ container_id: '' }), INVALID_ARGUMENT, /container ID must not be empty/);
      await rejected(r.PodSandboxStatus({ pod_sandbox_id: '' }), INVALID_ARGUMENT, /sandbox ID must not be empty/);
    });

    it('refuses an ambiguous ID prefix, and accepts a unique one', async () => {
      // 17 containers: two of them must share their first hex digit.
      const ids: string[] = [];
      for (let i = 0; i < 17; i++) ids.push(await env.create(podId, pod, `amb${i}`, SLEEPER));
      const all = [...ids, runningId];
      const shared = all.map((id) => id[0]!).find((c, i, arr) => arr.indexOf(c) !== i)!;
      await rejected(env.client.runtime.ContainerStatus({ container_id: shared }), INVALID_ARGUMENT, new RegExp(`prefix "${shared}" is ambiguous`));
      const unique = all.map((id) => id.slice(0, 12));
      const { status } = await env.client.runtime.ContainerStatus({ container_id: unique[0]! });
      expect(status!.id).toBe(all[0]);
      for (const id of ids) await env.client.runtime.RemoveContainer({ container_id: id });
    });

    it('refuses ExecSync without a command and UpdateContainerResources with absurd values', async () => {
      await rejected(env.client.runtime.ExecSync({ container_id: runningId, cmd: [], timeout: '1' }), INVALID_ARGUMENT, /cmd is required/);
      const update = (linux: LinuxContainerResources) => env.client.runtime.UpdateContainerResources({ container_id: runningId, linux });
      await rejected(update({ cpu_shares: '-5' }), INVALID_ARGUMENT, /cpu_shares/);
      await rejected(update({ memory_limit_in_bytes: '-1' }), INVALID_ARGUMENT, /memory_limit_in_bytes/);
      await rejected(update({ cpu_period: '5' }), INVALID_ARGUMENT, /cpu_period/);
      expect((await env.status(runningId)).state).toBe('CONTAINER_RUNNING');
    });

    it('refuses image references that cannot parse', async () => {
      for (const image of ['', 'a b', '../../etc/passwd', 'x@sha256:nothex']) {
        await rejected(env.client.image.PullImage({ image: { image } }), INVALID_ARGUMENT, /./);
      }
    });
  });
});

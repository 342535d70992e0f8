// Per-handler options, CDI devices and AppArmor through a real berthd and runc: a CDI spec in a temp
// dir injects env and a /dev/null-backed device node into a running container; a handler's
// base_runtime_spec, pod/container annotation patterns and privileged_without_host_devices reach its
// containers; an unreadable base_runtime_spec stops berthd at start; AppArmor asked for on this
// host (which has none) fails CreateContainer instead of being dropped.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { status as GrpcStatus } from '@grpc/grpc-js';
import { defaultUnixSpec } from '../../../internal/oci/spec';
import { deadline } from '../../harness/berth_env';
import { callError } from '../../harness/cri_client';
import { runBerthdToExit } from '../../harness/daemon';
import { createBerthEnv, SLEEPER, type BerthEnv } from '../recovery/berth_env';

jest.setTimeout(180_000);

const CDI_SPEC = `cdiVersion: "0.5.0"
kind: berth.test/null
containerEdits:
  env: [BERTH_CDI_SPEC=spec-wide]
devices:
- name: n0
  containerEdits:
    env: [BERTH_CDI=injected]
    deviceNodes:
    - path: /dev/berth-null
      hostPath: /dev/null
- name: n1
  containerEdits:
    env: [BERTH_CDI_ANNOTATED=yes]
`;

describe('per-handler options, CDI and AppArmor', () => {
  let env: BerthEnv;
  let files: string;

  beforeAll(async () => {
    files = mkdtempSync(join(tmpdir(), 'berth-handler-'));
    const cdiDir = join(files, 'cdi');
    mkdirSync(cdiDir);
    writeFileSync(join(cdiDir, 'berth-test.yaml'), CDI_SPEC);
    const base = defaultUnixSpec('base', 'k8s.io');
    base.process!.env = ['BASE_SPEC=from-base'];
    base.annotations = { 'berth.test/base': 'kept' };
    const baseFile = join(files, 'base.json');
    writeFileSync(baseFile, JSON.stringify(base));
    env = await createBerthEnv({
      criToml: `cdi_spec_dirs = [${JSON.stringify(cdiDir)}]`,
      extraToml: () => `[cri.runtimes.runc]

[cri.runtimes.based]
base_runtime_spec = ${JSON.stringify(baseFile)}
pod_annotations = ["berth.test/*"]
container_annotations = ["berth.test/*"]
privileged_without_host_devices = true
`,
    });
    await env.start();
  });

  afterAll(async () => {
    await env?.close();
    if (files !== undefined) rmSync(files, { recursive: true, force: true });
  });

  async function exec(id: string, script: string): Promise<string> {
    const r = await env.client.runtime.ExecSync({ container_id: id, cmd: ['sh', '-c', script], timeout: '30' });
    return r.stdout.toString() + r.stderr.toString();
  }

  async function runPod(name: string, handler: string, privileged = false, annotations: Record<string, string> = {}) {
    const config = env.podConfig(name, { annotations });
    if (privileged) config.linux!.security_context!.privileged = true;
    const { pod_sandbox_id } = await env.client.runtime.RunPodSandbox({ config, runtime_handler: handler }, deadline());
    return { podId: pod_sandbox_id, config };
  }

  it('injects the env and device node of CDI devices named by cdi_devices and by annotation', async () => {
    const { podId, config } = await runPod('cdi', '');
    const id = await env.create(podId, config, 'app', SLEEPER, {
      CDI_devices: [{ name: 'berth.test/null=n0' }],
      annotations: { 'cdi.k8s.io/test': 'berth.test/null=n1' },
    });
    await env.client.runtime.StartContainer({ container_id: id });
    expect(await exec(id, 'echo $BERTH_CDI $BERTH_CDI_SPEC $BERTH_CDI_ANNOTATED')).toBe('injected spec-wide yes\n');
    expect(await exec(id, 'stat -c "%t:%T %F" /dev/berth-null && echo data > /dev/berth-null && echo written')).toBe('1:3 character special file\nwritten\n');
  });

  it('refuses a container asking for a CDI device no spec defines', async () => {
    const { podId, config } = await runPod('cdi-unknown', '');
    const err = await callError(env.create(podId, config, 'app', SLEEPER, { CDI_devices: [{ name: 'berth.test/null=absent' }] }));
    expect(err.code).toBe(GrpcStatus.NOT_FOUND);
    expect(err.details).toContain('unresolvable CDI devices berth.test/null=absent');
  });

  it("starts a handler's containers from its base_runtime_spec and passes the annotations its patterns match", async () => {
    const { podId, config } = await runPod('based', 'based', false, { 'berth.test/pod': 'p', 'other.test/pod': 'no' });
    const id = await env.create(podId, config, 'app', SLEEPER, { annotations: { 'berth.test/ctr': 'c', 'other.test/ctr': 'no' } });
    await env.client.runtime.StartContainer({ container_id: id });
    expect(await exec(id, 'echo $BASE_SPEC')).toBe('from-base\n');

    const info = JSON.parse((await env.client.runtime.ContainerStatus({ container_id: id, verbose: true })).info['info'] ?? '{}') as { runtimeSpec: { annotations: Record<string, string> } };
    expect(info.runtimeSpec.annotations).toMatchObject({ 'berth.test/base': 'kept', 'berth.test/pod': 'p', 'berth.test/ctr': 'c' });
    expect(Object.keys(info.runtimeSpec.annotations).filter((k) => k.startsWith('other.test/'))).toEqual([]);
    const sandbox = JSON.parse((await env.client.runtime.PodSandboxStatus({ pod_sandbox_id: podId, verbose: true })).info['info'] ?? '{}') as { runtimeSpec: { annotations: Record<string, string> } };
    expect(sandbox.runtimeSpec.annotations['berth.test/pod']).toBe('p');
    expect(sandbox.runtimeSpec.annotations['berth.test/base']).toBeUndefined();
  });

  it('gives privileged containers host devices, except under a handler with privileged_without_host_devices', async () => {
    const privileged = { linux: { security_context: { privileged: true } } };
    const withDevices = await runPod('priv-host-devs', '', true);
    const a = await env.create(withDevices.podId, withDevices.config, 'app', SLEEPER, privileged);
    await env.client.runtime.StartContainer({ container_id: a });
    expect(await exec(a, 'test -c /dev/loop-control && echo present')).toBe('present\n');

    const without = await runPod('priv-no-host-devs', 'based', true);
    const b = await env.create(without.podId, without.config, 'app', SLEEPER, privileged);
    await env.client.runtime.StartContainer({ container_id: b });
    expect(await exec(b, 'test -e /dev/loop-control || echo absent')).toBe('absent\n');
  });

  it('fails CreateContainer for an AppArmor profile this host cannot enforce, and runs without one when none is asked for', async () => {
    const { podId, config } = await runPod('apparmor', '');
    for (const apparmor of [
      { profile_type: 'RuntimeDefault' as const },
      { profile_type: 'Localhost' as const, localhost_ref: 'berth-test-profile' },
    ]) {
      const err = await callError(env.create(podId, config, `app-${apparmor.profile_type}`, SLEEPER, { linux: { security_context: { apparmor } } }));
      expect(err.code).toBe(GrpcStatus.FAILED_PRECONDITION);
      expect(err.details).toMatch(/AppArmor profile .* requested, but AppArmor is not enabled on this host/);
    }
    const id = await env.create(podId, config, 'unconfined', SLEEPER, { linux: { security_context: { apparmor: { profile_type: 'Unconfined' } } } });
    await env.client.runtime.StartContainer({ container_id: id });
    expect((await env.status(id)).state).toBe('CONTAINER_RUNNING');
  });

  it('stops berthd at start when a base_runtime_spec cannot be read', async () => {
    const missing = join(files, 'missing.json');
    const run = await runBerthdToExit({ configToml: `[cri.runtimes.runc]\nbase_runtime_spec = ${JSON.stringify(missing)}\n` });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`cri.runtimes.runc.base_runtime_spec "${missing}": cannot load the base OCI spec: ENOENT`);
  });
});

// Rollback under injected failures, through the CRI (issue: "every step undoes what it did"): a CNI
// plugin that fails, one that hangs, one whose result has no IP for an address, a runc that fails
// create, a spec that cannot be built after the snapshot was prepared. After each: no name
// reserved (the same request succeeds once the fault is gone), and leaks() finds nothing — no
// netns, mount, snapshot, FIFO dir, row, shim or process.
import { execFileSync } from 'node:child_process';
import { chmodSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { status as GrpcStatus } from '@grpc/grpc-js';
import { callError } from '../../harness/cri_client';
import { createBerthEnv, deadline, SLEEPER, type BerthEnv } from '../recovery/berth_env';
import { leaks } from '../recovery/host_state';
import { runtimeHandlersToml } from '../../harness/berth_env';

describe('rollback of injected failures', () => {
  let env: BerthEnv;
  const failingRunc = () => join(env.dir, 'failing-runc');

  beforeAll(async () => {
    env = await createBerthEnv({
      extraToml: (dir) => runtimeHandlersToml({ failing: { binaryName: join(dir, 'failing-runc') } }),
    });
    await env.start();
    writeFileSync(failingRunc(), '#!/bin/sh\nexit 1\n');
    chmodSync(failingRunc(), 0o755);
  });
  afterAll(async () => {
    await env?.close();
  });

  it('a CNI plugin that fails: RunPodSandbox fails, nothing is left, the name is free again', async () => {
    // Sorted before the test network: a bridge whose IPAM range is invalid fails its ADD.
    const bad = join(env.cni.confDir, '00-failing.conflist');
    const failingBridge = `${env.cni.bridge}x`;
    writeFileSync(
      bad,
      JSON.stringify({
        cniVersion: '1.0.0',
        name: 'failing',
        plugins: [{ type: 'bridge', bridge: failingBridge, ipam: { type: 'host-local', ranges: [[{ subnet: '300.1.1.0/24' }]] } }],
      }),
    );
    const config = env.podConfig('cni-fail');
    try {
      const err = await callError(env.client.runtime.RunPodSandbox({ config }, deadline()));
      expect(err.details).toMatch(/bridge/);
      expect(leaks(env.host())).toEqual([]);
      expect((await env.client.runtime.ListPodSandbox({})).items).toEqual([]);
    } finally {
      rmSync(bad, { force: true });
      // The bridge plugin makes its host bridge before IPAM fails; CNI DEL never removes bridges.
      try {
        execFileSync('ip', ['link', 'del', failingBridge], { stdio: 'ignore' });
      } catch {
        // not created
      }
    }
    const { pod_sandbox_id } = await env.client.runtime.RunPodSandbox({ config }, deadline());
    expect(pod_sandbox_id).toMatch(/^[0-9a-f]{64}$/);
    await env.removeAll();
    expect(leaks(env.host())).toEqual([]);
  });

  it('a CNI result whose address is no IP: RunPodSandbox fails naming it (as libcni refuses it), nothing is left', async () => {
    // ADD answers an address that is not one; DEL (the undo) succeeds.
    env.cni.writePlugin(
      'absurd-ip',
      `#!/bin/sh\ncat >/dev/null\n[ "$CNI_COMMAND" = ADD ] && printf '%s' '{"cniVersion":"1.0.0","interfaces":[{"name":"eth0","sandbox":"'"$CNI_NETNS"'"}],"ips":[{"interface":0,"address":"hello world; rm -rf /"}]}'\nexit 0\n`,
    );
    const conf = join(env.cni.confDir, '00-absurd.conflist');
    writeFileSync(conf, JSON.stringify({ cniVersion: '1.0.0', name: 'absurd', plugins: [{ type: 'absurd-ip' }] }));
    try {
      const err = await callError(env.client.runtime.RunPodSandbox({ config: env.podConfig('absurd-ip') }, deadline()));
      expect(err.details).toMatch(/CNI plugin "absurd-ip" result: address "hello world; rm -rf \/" is not an IP address/);
      expect((await env.client.runtime.ListPodSandbox({})).items).toEqual([]);
      expect(leaks(env.host())).toEqual([]);
    } finally {
      rmSync(conf, { force: true });
    }
  });

  it("a CNI plugin that hangs: RunPodSandbox gives up at the caller's deadline, and the pod is undone", async () => {
    // ADD never ends (a stuck IPAM); DEL (the undo) succeeds.
    env.cni.writePlugin('stuck', '#!/bin/sh\ncat >/dev/null\n[ "$CNI_COMMAND" = ADD ] && exec sleep 600\nexit 0\n');
    const conf = join(env.cni.confDir, '00-stuck.conflist');
    writeFileSync(conf, JSON.stringify({ cniVersion: '1.0.0', name: 'stuck', plugins: [{ type: 'stuck' }] }));
    try {
      const err = await callError(env.client.runtime.RunPodSandbox({ config: env.podConfig('stuck-cni') }, deadline(3_000)));
      expect(err.code).toBe(GrpcStatus.DEADLINE_EXCEEDED);
      // The plugin's own bound is 60 s: the undo within 30 s shows the caller's deadline cut it short.
      const until = Date.now() + 30_000;
      while ((await env.client.runtime.ListPodSandbox({})).items.length > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 200));
      expect((await env.client.runtime.ListPodSandbox({})).items).toEqual([]);
      expect(env.daemon.stderr()).toMatch(/CNI plugin \\"stuck\\" ADD on network \\"stuck\\".*timed out after \d+ms/);
      expect(leaks(env.host())).toEqual([]);
    } finally {
      rmSync(conf, { force: true });
    }
  });

  it('a runc that fails create: RunPodSandbox fails naming it, nothing is left', async () => {
    const config = env.podConfig('runc-fail');
    const err = await callError(env.client.runtime.RunPodSandbox({ config, runtime_handler: 'failing' }, deadline()));
    // The shim reports the runtime binary that failed, as it does under containerd.
    expect(err.details).toContain(`${failingRunc()} did not terminate successfully`);
    expect(leaks(env.host())).toEqual([]);
    const { pod_sandbox_id } = await env.client.runtime.RunPodSandbox({ config }, deadline());
    expect(pod_sandbox_id).toMatch(/^[0-9a-f]{64}$/);
    await env.removeAll();
    expect(leaks(env.host())).toEqual([]);
  });

  it('a spec that cannot be built after the snapshot: CreateContainer fails, no snapshot or name is left', async () => {
    const { podId, config: pod } = await env.runPod('spec-fail');
    const err = await callError(
      env.create(podId, pod, 'c', SLEEPER, { linux: { security_context: { run_as_username: 'no-such-user' } } }),
    );
    expect(err.code).toBe(GrpcStatus.INVALID_ARGUMENT);
    expect(err.details).toMatch(/no-such-user/);
    expect((await env.client.runtime.ListContainers({})).containers).toEqual([]);
    expect(leaks(env.host())).toEqual([]);
    const id = await env.create(podId, pod, 'c', SLEEPER);
    expect(id).toMatch(/^[0-9a-f]{64}$/);
    await env.removeAll();
    expect(leaks(env.host())).toEqual([]);
  });
});

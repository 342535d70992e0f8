// Rollback under injected failures, through the CRI (issue: "every step undoes what it did"): a CNI
// plugin that fails, one that hangs, one whose result has no IP for an address, a runc that fails
// create, a spec that cannot be built after the snapshot was prepared. After each: no name
// reserved (the same request succeeds once the fault is gone), and leaks() finds nothing — no
// netns, mount, snapshot, FIFO dir, row, shim or process. An undo that fails itself (a CNI DEL)
// leaves the pod listed NOTREADY instead, as containerd does, until RemovePodSandbox can finish it.
import { execFileSync } from 'node:child_process';
import { chmodSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
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

  it('a CNI config that fails ADD and DEL: RunPodSandbox fails, the pod stays NOTREADY until it can be removed, then nothing is left', async () => {
    // Sorted before the test network: a bridge whose IPAM range is invalid fails its ADD, and the
    // DEL of the undo too; as containerd, the pod is kept for the kubelet's RemovePodSandbox.
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
      const { items } = await env.client.runtime.ListPodSandbox({});
      expect(items.map((p) => [p.metadata?.name, p.state])).toEqual([['cni-fail', 'SANDBOX_NOTREADY']]);
      await expect(env.client.runtime.RemovePodSandbox({ pod_sandbox_id: items[0]!.id }, deadline())).rejects.toMatchObject({
        details: expect.stringMatching(/teardown network/),
      });
      rmSync(bad);
      await env.client.runtime.RemovePodSandbox({ pod_sandbox_id: items[0]!.id }, deadline());
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
      while (leaks(env.host()).length > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 200));
      expect((await env.client.runtime.ListPodSandbox({})).items).toEqual([]);
      expect(env.daemon.stderr()).toMatch(/CNI plugin \\"stuck\\" ADD on network \\"stuck\\".*timed out after \d+ms/);
      expect(leaks(env.host())).toEqual([]);
    } finally {
      rmSync(conf, { force: true });
    }
  });

  it('a CNI DEL that fails in the undo: the pod stays NOTREADY with its netns, and goes whole once DEL works', async () => {
    // After the bridge, a plugin whose ADD fails, and whose DEL fails while "del-fails" exists
    // (a plugin that cannot reach its datastore, say): whatever it holds for the pod stays held.
    const delFails = join(env.dir, 'del-fails');
    env.cni.writePlugin(
      'flaky-del',
      `#!/bin/sh\ncat >/dev/null\n[ "$CNI_COMMAND" = ADD ] && { printf '%s' '{"cniVersion":"1.0.0","code":11,"msg":"no quota"}'; exit 1; }\n[ "$CNI_COMMAND" = DEL ] && [ -e ${JSON.stringify(delFails)} ] && { printf '%s' '{"cniVersion":"1.0.0","code":11,"msg":"try again later"}'; exit 1; }\nexit 0\n`,
    );
    env.cni.writeConflist([{ type: 'flaky-del' }]);
    writeFileSync(delFails, '');
    const config = env.podConfig('del-fails');
    try {
      const err = await callError(env.client.runtime.RunPodSandbox({ config }, deadline()));
      expect(err.details).toMatch(/no quota/);
      // As containerd keeps a sandbox it could not clean up (UNKNOWN, listed NOTREADY) for the
      // kubelet to remove: forgetting it would leak the address and the veth.
      const { items } = await env.client.runtime.ListPodSandbox({});
      expect(items.map((p) => [p.metadata?.name, p.state])).toEqual([['del-fails', 'SANDBOX_NOTREADY']]);
      expect(readdirSync(join(env.host().state, 'netns'))).toHaveLength(1);
      // Still held: a retry with the same name and attempt is refused, as for any pod of that name.
      expect((await callError(env.client.runtime.RunPodSandbox({ config }, deadline()))).details).toMatch(/reserved|already/);
      await expect(env.client.runtime.RemovePodSandbox({ pod_sandbox_id: items[0]!.id }, deadline())).rejects.toMatchObject({
        details: expect.stringMatching(/try again later/),
      });
      rmSync(delFails);
      await env.client.runtime.RemovePodSandbox({ pod_sandbox_id: items[0]!.id }, deadline());
      expect((await env.client.runtime.ListPodSandbox({})).items).toEqual([]);
      expect(env.cni.allocatedIPs()).toEqual([]);
      expect(env.cni.bridgePorts()).toEqual([]);
      expect(leaks(env.host())).toEqual([]);
    } finally {
      rmSync(delFails, { force: true });
      env.cni.writeConflist();
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

// A task bundle whose `address` file is gone or names no live socket at restart: berthd finds the
// shim where the shim itself listens (its socket path is a hash of berth's address, the namespace
// and the pod's sandbox ID) and carries on. Before, the task was taken for lost and deleted with the
// shim binary while its shim kept running; the pod's shim still held the container, so it refused
// to shut down and outlived the pod for good.
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createBerthEnv, deadline, SLEEPER, type BerthEnv } from './berth_env';
import { leaks, shimsOf } from './host_state';

jest.setTimeout(300_000);

describe("a task whose bundle's shim address is lost while berthd is down", () => {
  let env: BerthEnv;

  beforeAll(async () => {
    env = await createBerthEnv();
    await env.start();
  });
  afterAll(async () => {
    await env?.close();
  });

  const addressFile = (id: string) => join(env.host().state, 'io.containerd.runtime.v2.task', 'k8s.io', id, 'address');

  /** A pod with a running container, berthd stopped, `damage` done to the bundles, berthd started. */
  async function restartedAfter(name: string, damage: (podId: string, containerId: string) => void) {
    const { podId, config } = await env.runPod(name);
    const id = await env.create(podId, config, 'app', SLEEPER);
    await env.client.runtime.StartContainer({ container_id: id }, deadline());
    const shims = shimsOf(env.daemon.socket);
    const address = readFileSync(addressFile(podId), 'utf8');
    expect(readFileSync(addressFile(id), 'utf8')).toBe(address);
    await env.stop();
    env.client.close();
    damage(podId, id);
    await env.start();
    return { podId, id, shims, address };
  }

  async function expectRunningThenGone(podId: string, id: string, shims: { pid: number; id: string }[]) {
    expect((await env.status(id)).state).toBe('CONTAINER_RUNNING');
    expect((await env.client.runtime.PodSandboxStatus({ pod_sandbox_id: podId })).status?.state).toBe('SANDBOX_READY');
    expect(shimsOf(env.daemon.socket)).toEqual(shims);
    await env.client.runtime.StopPodSandbox({ pod_sandbox_id: podId }, deadline());
    await env.client.runtime.RemovePodSandbox({ pod_sandbox_id: podId }, deadline());
    expect(shimsOf(env.daemon.socket)).toEqual([]);
    expect(leaks(env.host())).toEqual([]);
  }

  it("reconnects a container whose address file was deleted, records the address again, and its pod's shim ends with the pod", async () => {
    const { podId, id, shims, address } = await restartedAfter('lost-address', (_pod, container) => rmSync(addressFile(container)));
    expect((await env.status(id)).state).toBe('CONTAINER_RUNNING');
    expect(env.daemon.stderr()).toContain('reconnected to a task\'s shim through the address it computes');
    expect(readFileSync(addressFile(id), 'utf8')).toBe(address);
    await expectRunningThenGone(podId, id, shims);
  });

  it('reconnects a pod whose address file names no socket, and repairs the file', async () => {
    const { podId, id, shims, address } = await restartedAfter('bad-address', (pod) => writeFileSync(addressFile(pod), 'unix:///nonexistent/\u0000zz'));
    expect((await env.client.runtime.PodSandboxStatus({ pod_sandbox_id: podId })).status?.state).toBe('SANDBOX_READY');
    expect(readFileSync(addressFile(podId), 'utf8')).toBe(address);
    await expectRunningThenGone(podId, id, shims);
  });
});

// A shim that does not answer when berthd restarts (stopped, deadlocked) is treated as dead, as
// containerd treats a shim that fails its load check: `delete` cleans its task up without it and
// its containers read EXITED. The shim itself is then ended (it could otherwise come back later
// and hold its socket and a deleted bundle forever) and not asked to shut down, which it would
// not answer either. So is a shim that cannot be reached at all (its socket file removed).
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createBerthEnv, deadline, SLEEPER, type BerthEnv } from './berth_env';
import { leaks, shimsOf } from './host_state';

jest.setTimeout(300_000);

describe('a shim that does not answer at restart', () => {
  let env: BerthEnv;
  let stopped: number | undefined;

  afterAll(async () => {
    if (stopped !== undefined) {
      try {
        process.kill(stopped, 'SIGCONT');
      } catch {
        // gone, as it should be
      }
    }
    await env?.close();
  });

  it('is ended after delete cleaned its task up; the pod reads stopped and goes without leaving anything', async () => {
    env = await createBerthEnv();
    await env.start();
    const { podId, config } = await env.runPod('wedged');
    const id = await env.create(podId, config, 'app', SLEEPER);
    await env.client.runtime.StartContainer({ container_id: id }, deadline());
    const [shim, ...others] = shimsOf(env.daemon.socket);
    expect(others).toEqual([]);
    const socket = readFileSync(join(env.host().state, 'io.containerd.runtime.v2.task', 'k8s.io', podId, 'address'), 'utf8').replace(/^unix:\/\//, '');
    expect(existsSync(socket)).toBe(true);
    stopped = shim!.pid;
    process.kill(stopped, 'SIGSTOP');

    await env.daemon.kill();
    env.client.close();
    await env.start();

    expect((await env.status(id)).state).toBe('CONTAINER_EXITED');
    expect((await env.client.runtime.PodSandboxStatus({ pod_sandbox_id: podId })).status?.state).toBe('SANDBOX_NOTREADY');
    expect(shimsOf(env.daemon.socket)).toEqual([]);
    expect(existsSync(socket)).toBe(false); // nothing listens there again: not left under /run/containerd/s
    expect(env.daemon.stderr()).toContain('killed the shim that did not answer');
    expect(env.daemon.stderr()).not.toContain('shim shutdown failed');

    await env.client.runtime.StopPodSandbox({ pod_sandbox_id: podId }, deadline());
    await env.client.runtime.RemovePodSandbox({ pod_sandbox_id: podId }, deadline());
    expect(leaks(env.host())).toEqual([]);
  });

  it('a shim whose socket file was removed is ended too, once delete cleaned its tasks up', async () => {
    const { podId, config } = await env.runPod('unreachable');
    const id = await env.create(podId, config, 'app', SLEEPER);
    await env.client.runtime.StartContainer({ container_id: id }, deadline());
    expect(shimsOf(env.daemon.socket)).toHaveLength(1);
    const socket = readFileSync(join(env.host().state, 'io.containerd.runtime.v2.task', 'k8s.io', podId, 'address'), 'utf8').replace(/^unix:\/\//, '');
    rmSync(socket); // a /run cleaner

    await env.daemon.kill();
    env.client.close();
    await env.start();

    expect((await env.status(id)).state).toBe('CONTAINER_EXITED');
    expect(shimsOf(env.daemon.socket)).toEqual([]);
    expect(env.daemon.stderr()).toContain('killed the shim that could not be reached');
    await env.client.runtime.StopPodSandbox({ pod_sandbox_id: podId }, deadline());
    await env.client.runtime.RemovePodSandbox({ pod_sandbox_id: podId }, deadline());
    expect(leaks(env.host())).toEqual([]);
  });
});

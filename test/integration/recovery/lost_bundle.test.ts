// A task whose bundle directory someone removed (a /run cleaner, an operator's rm) while it runs:
// runc logs to <bundle>/log.json, so without the directory it cannot kill, exec in or delete the
// container. berthd makes the directory again before each request to the shim, and at a restart
// makes the bundle again from the record's spec when the shim still runs the task. containerd 1.6
// can then neither stop the container nor, after a restart, see it: it reads EXITED while its
// process, shim and cgroup run on past the pod's removal.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { status as GrpcStatus } from '@grpc/grpc-js';
import { callError } from '../../harness/cri_client';
import { createBerthEnv, deadline, SLEEPER, type BerthEnv } from './berth_env';
import { leaks, shimsOf } from './host_state';
import { processAndShim, until } from './probes';

jest.setTimeout(240_000);

describe('a task whose bundle directory was removed', () => {
  let env: BerthEnv;
  beforeAll(async () => {
    env = await createBerthEnv();
    await env.start();
  });
  afterAll(async () => env?.close());

  const bundleOf = (id: string) => join(env.daemon.state, 'io.containerd.runtime.v2.task', 'k8s.io', id);
  /** What a cleaner does: the rootfs mount detached, then the tree removed. */
  const removeBundle = (id: string) => {
    execFileSync('umount', ['-l', join(bundleOf(id), 'rootfs')]);
    rmSync(bundleOf(id), { recursive: true });
  };
  /** A pod with a running SLEEPER container, and the container's process and shim. */
  const runningContainer = async (name: string) => {
    const { podId, config } = await env.runPod(name);
    const id = await env.create(podId, config, 'app', SLEEPER);
    await env.client.runtime.StartContainer({ container_id: id }, deadline());
    return { podId, id, ...(await processAndShim(env.client, id)) };
  };
  const alive = (pid: number) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };

  it('is stopped all the same: the directory is made again for runc', async () => {
    const { podId, id, pid } = await runningContainer('lost-bundle');
    removeBundle(id);
    removeBundle(podId);

    const exec = await env.client.runtime.ExecSync({ container_id: id, cmd: ['echo', 'still here'], timeout: 30 }, deadline());
    expect(exec.exit_code).toBe(0);
    expect(exec.stdout.toString()).toBe('still here\n');
    await env.client.runtime.StopContainer({ container_id: id, timeout: 10 }, deadline());
    expect((await env.status(id)).state).toBe('CONTAINER_EXITED');
    await env.client.runtime.StopPodSandbox({ pod_sandbox_id: podId }, deadline());
    await env.client.runtime.RemovePodSandbox({ pod_sandbox_id: podId }, deadline());
    expect(env.daemon.stderr()).toContain("made the task's bundle directory again");
    expect(alive(pid)).toBe(false);
    expect(shimsOf(env.daemon.socket)).toEqual([]);
    expect(leaks(env.host())).toEqual([]);
  });

  it('is found running after a restart, from the bundle made again out of its record', async () => {
    const { podId, id, ...before } = await runningContainer('lost-bundle-restart');
    const shims = shimsOf(env.daemon.socket);
    expect(shims).toHaveLength(1);
    removeBundle(id);
    removeBundle(podId);

    await env.daemon.kill();
    env.client.close();
    await env.start();

    expect((await env.status(id)).state).toBe('CONTAINER_RUNNING');
    expect(await processAndShim(env.client, id)).toEqual(before);
    expect((await env.client.runtime.PodSandboxStatus({ pod_sandbox_id: podId })).status?.state).toBe('SANDBOX_READY');
    expect(shimsOf(env.daemon.socket)).toEqual(shims);
    expect(env.daemon.stderr()).toContain("made a task's bundle again from its record");
    const exec = await env.client.runtime.ExecSync({ container_id: id, cmd: ['true'], timeout: 30 }, deadline());
    expect(exec.exit_code).toBe(0);

    await env.client.runtime.StopContainer({ container_id: id, timeout: 10 }, deadline());
    expect((await env.status(id)).exit_code).toBe(0); // SLEEPER's TERM trap: stopped, not lost
    await env.client.runtime.StopPodSandbox({ pod_sandbox_id: podId }, deadline());
    await env.client.runtime.RemovePodSandbox({ pod_sandbox_id: podId }, deadline());
    expect(alive(before.pid)).toBe(false);
    expect(shimsOf(env.daemon.socket)).toEqual([]);
    expect(leaks(env.host())).toEqual([]);
  });

  it('that exited while berthd was down reads its real exit after a restart, and leaves nothing', async () => {
    const { podId, id, pid } = await runningContainer('lost-bundle-exited');
    removeBundle(id);

    await env.daemon.kill();
    env.client.close();
    process.kill(pid, 'SIGKILL');
    await env.start();

    const status = await env.status(id);
    expect(status.state).toBe('CONTAINER_EXITED');
    expect(status.exit_code).toBe(137);
    expect(status.reason).toBe('Error');
    await env.client.runtime.RemoveContainer({ container_id: id }, deadline());
    expect(existsSync(bundleOf(id))).toBe(false);
    await env.client.runtime.StopPodSandbox({ pod_sandbox_id: podId }, deadline());
    await env.client.runtime.RemovePodSandbox({ pod_sandbox_id: podId }, deadline());
    expect(shimsOf(env.daemon.socket)).toEqual([]);
    expect(leaks(env.host())).toEqual([]);
  });

  it('made again, still lets the shim `delete` end its container when the shim dies', async () => {
    // The shim's `delete` reads the `runtime` and `options.json` the shim wrote at Create: without
    // them it fails before its `runc delete --force`, and the container runs on with no owner.
    const { podId, id, pid, shim } = await runningContainer('lost-bundle-dead-shim');
    removeBundle(id);
    removeBundle(podId);
    await env.client.runtime.ExecSync({ container_id: id, cmd: ['true'], timeout: 30 }, deadline());
    expect(readFileSync(join(bundleOf(id), 'runtime'), 'utf8')).toBe('');

    process.kill(shim, 'SIGKILL');
    await env.waitState(id, 'CONTAINER_EXITED');
    await until('the container process to be ended by delete', () => !alive(pid));
    await env.client.runtime.StopPodSandbox({ pod_sandbox_id: podId }, deadline());
    await env.client.runtime.RemovePodSandbox({ pod_sandbox_id: podId }, deadline());
    expect(env.daemon.stderr()).not.toMatch(/shim delete.*failed/);
    expect(leaks(env.host())).toEqual([]);
  });

  it('a bundle path runc cannot use: StopPodSandbox answers the kill error at once, and stops the pod once it is cleared', async () => {
    const { podId } = await env.runPod('blocked-bundle');
    removeBundle(podId);
    writeFileSync(bundleOf(podId), ''); // not a directory: nothing to make again, runc's log cannot open

    const err = await callError(env.client.runtime.StopPodSandbox({ pod_sandbox_id: podId }, deadline(60_000)));
    expect(err.code).not.toBe(GrpcStatus.DEADLINE_EXCEEDED);
    expect(err.details).toContain(`failed to kill the pause of pod ${podId}`);
    expect(err.details).toContain('log.json');

    rmSync(bundleOf(podId));
    await env.client.runtime.StopPodSandbox({ pod_sandbox_id: podId }, deadline());
    await env.client.runtime.RemovePodSandbox({ pod_sandbox_id: podId }, deadline());
    expect(leaks(env.host())).toEqual([]);
  });
});

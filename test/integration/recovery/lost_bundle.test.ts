// A pod whose pause bundle directory someone removed: runc cannot kill the pause (it logs to
// <bundle>/log.json). StopPodSandbox answers with that error at once, as containerd's does,
// instead of waiting for an exit that cannot come until the caller's deadline; once the directory
// is back, the stop goes through and nothing is left.
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { status as GrpcStatus } from '@grpc/grpc-js';
import { callError } from '../../harness/cri_client';
import { createBerthEnv, deadline, type BerthEnv } from './berth_env';
import { leaks } from './host_state';

jest.setTimeout(180_000);

describe('a pod whose pause bundle was removed', () => {
  let env: BerthEnv;
  beforeAll(async () => {
    env = await createBerthEnv();
    await env.start();
  });
  afterAll(async () => env?.close());

  it('StopPodSandbox answers the kill error, and stops the pod once the directory is back', async () => {
    const { podId } = await env.runPod('lost-bundle');
    const bundle = join(env.daemon.state, 'io.containerd.runtime.v2.task', 'k8s.io', podId);
    execFileSync('umount', ['-l', join(bundle, 'rootfs')]);
    rmSync(bundle, { recursive: true });

    const err = await callError(env.client.runtime.StopPodSandbox({ pod_sandbox_id: podId }, deadline(60_000)));
    expect(err.code).not.toBe(GrpcStatus.DEADLINE_EXCEEDED);
    expect(err.details).toContain(`failed to kill the pause of pod ${podId}`);
    expect(err.details).toContain('log.json');

    mkdirSync(bundle);
    await env.client.runtime.StopPodSandbox({ pod_sandbox_id: podId }, deadline());
    await env.client.runtime.RemovePodSandbox({ pod_sandbox_id: podId }, deadline());
    expect(leaks(env.host())).toEqual([]);
  });
});

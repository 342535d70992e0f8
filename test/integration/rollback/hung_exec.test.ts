// A `runc exec` that hangs (a stuck cgroup, a broken runc): the shim's Start of the exec never
// answers, and while it runs the shim delivers no exit of that pod. Each call waiting on it must end
// with its caller, as containerd's handlers end with their request's context: an ExecSync probe
// (its FIFOs gone with it, so probes do not pile up), and a StopPodSandbox, whose wait for the exit
// once held the container's lock forever. Once runc answers again, the exec that started late is
// killed, and the pod stops and goes without leaving anything.
import { chmodSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { status as GrpcStatus } from '@grpc/grpc-js';
import { callError } from '../../harness/cri_client';
import { createBerthEnv, deadline, SLEEPER, type BerthEnv } from '../recovery/berth_env';
import { leaks } from '../recovery/host_state';
import { until } from '../recovery/probes';
import { runtimeHandlersToml } from '../../harness/berth_env';

jest.setTimeout(180_000);

/** PIDs of processes whose command line is exactly `argv`. */
function processesRunning(argv: readonly string[]): number[] {
  const want = `${argv.join('\0')}\0`;
  const pids: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (readFileSync(`/proc/${name}/cmdline`, 'latin1') === want) pids.push(Number(name));
    } catch {
      // gone
    }
  }
  return pids;
}

describe('a runc exec that hangs', () => {
  let env: BerthEnv;
  const hangMarker = () => join(env.dir, 'hang-exec');

  beforeAll(async () => {
    env = await createBerthEnv({
      extraToml: (dir) => runtimeHandlersToml({ 'hang-exec': { binaryName: join(dir, 'hang-exec-runc') } }),
    });
    // While the marker exists, `runc exec` waits before it runs (then goes on as runc).
    writeFileSync(
      join(env.dir, 'hang-exec-runc'),
      `#!/bin/sh\nfor a; do [ "$a" = exec ] && while [ -e ${JSON.stringify(join(env.dir, 'hang-exec'))} ]; do sleep 0.1; done; done\nexec runc "$@"\n`,
    );
    chmodSync(join(env.dir, 'hang-exec-runc'), 0o755);
    await env.start();
  });
  afterAll(async () => {
    if (env) rmSync(hangMarker(), { force: true });
    await env?.close();
  });

  it('ends ExecSync probes and StopPodSandbox with their callers; once runc answers, the late exec is killed and the pod goes', async () => {
    const config = env.podConfig('hung-exec');
    const { pod_sandbox_id: podId } = await env.client.runtime.RunPodSandbox({ config, runtime_handler: 'hang-exec' }, deadline());
    const id = await env.create(podId, config, 'main', SLEEPER);
    await env.client.runtime.StartContainer({ container_id: id }, deadline());
    const execDir = join(env.daemon.state, 'containers', id, 'exec');

    writeFileSync(hangMarker(), '');
    const probe = ['sleep', '3607'];
    // Kubelet's exec probes: a 1 s timeout, the call's deadline a little later.
    for (let i = 0; i < 5; i++) {
      const err = await callError(env.client.runtime.ExecSync({ container_id: id, cmd: probe, timeout: '1' }, deadline(2_000)));
      expect(err.code).toBe(GrpcStatus.DEADLINE_EXCEEDED);
    }
    // berthd ended each call with its caller: no probe's FIFOs are left while runc still hangs.
    await until('the probes FIFOs are removed', () => !existsSync(execDir) || readdirSync(execDir).length === 0);

    const stop = await callError(env.client.runtime.StopPodSandbox({ pod_sandbox_id: podId }, deadline(3_000)));
    expect(stop.code).toBe(GrpcStatus.DEADLINE_EXCEEDED);
    await until('berthd ended StopPodSandbox with its caller', () =>
      env.daemon.stderr().split('\n').some((line) => line.includes('/StopPodSandbox"') && line.includes('caller went away')),
    );

    rmSync(hangMarker());
    // The execs that start now are killed, as nobody waits for them any more.
    await until('the late execs are killed', () => processesRunning(probe).length === 0);
    await env.client.runtime.StopPodSandbox({ pod_sandbox_id: podId }, deadline());
    expect((await env.status(id)).state).toBe('CONTAINER_EXITED');
    await env.client.runtime.RemovePodSandbox({ pod_sandbox_id: podId }, deadline());
    expect(leaks(env.host())).toEqual([]);
  });
});

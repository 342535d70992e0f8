// A `runc exec` that hangs (a stuck cgroup, a broken runc): the shim's Start of the exec never
// answers, and while it runs the shim delivers no exit of that pod. Each call waiting on it must end
// with its caller, as containerd's handlers end with their request's context: an ExecSync probe, a
// kubectl exec session, and a StopPodSandbox, whose wait for the exit once held the container's
// lock forever. Once runc answers again, the exec that started late is killed, and only then are its
// FIFOs removed: the shim opens them after runc started the process, and a FIFO removed earlier
// failed that Start and left the process running where no Kill could reach it.
import { chmodSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { status as GrpcStatus } from '@grpc/grpc-js';
import { callError } from '../../harness/cri_client';
import { createBerthEnv, deadline, SLEEPER, type BerthEnv } from '../recovery/berth_env';
import { leaks } from '../recovery/host_state';
import { until } from '../recovery/probes';
import { runtimeHandlersToml } from '../../harness/berth_env';
import WebSocket from 'ws';

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
  const file = (name: string) => join(env.dir, name);
  const hangMarker = () => file('hang-exec');
  /** The `runc exec` runs that hung and then went on, to their end. */
  const execsDone = () => readdirSync(env.dir).filter((n) => n.startsWith('exec-done-')).length;
  const clearExecsDone = () => readdirSync(env.dir).forEach((n) => n.startsWith('exec-done-') && rmSync(file(n)));

  beforeAll(async () => {
    env = await createBerthEnv({
      extraToml: (dir) => runtimeHandlersToml({ 'hang-exec': { binaryName: join(dir, 'hang-exec-runc') } }),
    });
    // While the marker exists, `runc exec` says it began (the "exec-entered" file) and waits; then
    // it runs runc and, once runc ended, leaves an "exec-done-<pid>" file.
    const q = (name: string) => JSON.stringify(join(env.dir, name));
    writeFileSync(
      file('hang-exec-runc'),
      `#!/bin/sh\nfor a; do if [ "$a" = exec ] && [ -e ${q('hang-exec')} ]; then touch ${q('exec-entered')}; while [ -e ${q('hang-exec')} ]; do sleep 0.1; done; runc "$@"; rc=$?; touch ${q('exec-done-')}$$; exit $rc; fi; done\nexec runc "$@"\n`,
    );
    chmodSync(file('hang-exec-runc'), 0o755);
    await env.start();
  });
  afterAll(async () => {
    if (env) rmSync(hangMarker(), { force: true });
    await env?.close();
  });

  /** Lines of berthd's log that say the call ended because its caller went away. */
  const endedWithCaller = (what: string) =>
    env.daemon
      .stderr()
      .split('\n')
      .filter((line) => line.includes(what) && line.includes('caller went away')).length;

  it('ends ExecSync probes and StopPodSandbox with their callers; once runc answers, the late execs are killed and the pod goes', async () => {
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
    // berthd ended each call with its caller, while runc still hangs.
    await until('berthd ended the probes with their callers', () => endedWithCaller('/ExecSync"') === 5);

    const stop = await callError(env.client.runtime.StopPodSandbox({ pod_sandbox_id: podId }, deadline(3_000)));
    expect(stop.code).toBe(GrpcStatus.DEADLINE_EXCEEDED);
    await until('berthd ended StopPodSandbox with its caller', () => endedWithCaller('/StopPodSandbox"') === 1);
    expect(readdirSync(execDir).length).toBeGreaterThan(0); // kept for the Starts under way

    rmSync(hangMarker());
    // The execs that start now are killed (the stop killed their container too), then their FIFOs go.
    await until('the probes FIFOs are removed', () => readdirSync(execDir).length === 0);
    expect(processesRunning(probe)).toEqual([]);
    await env.client.runtime.StopPodSandbox({ pod_sandbox_id: podId }, deadline());
    expect((await env.status(id)).state).toBe('CONTAINER_EXITED');
    await env.client.runtime.RemovePodSandbox({ pod_sandbox_id: podId }, deadline());
    expect(leaks(env.host())).toEqual([]);
  });

  it("ends a streaming exec's session with its client (kubectl exec); once runc answers, the late exec is killed", async () => {
    const config = env.podConfig('hung-stream');
    const { pod_sandbox_id: podId } = await env.client.runtime.RunPodSandbox({ config, runtime_handler: 'hang-exec' }, deadline());
    const id = await env.create(podId, config, 'main', SLEEPER);
    await env.client.runtime.StartContainer({ container_id: id }, deadline());
    const execDir = join(env.daemon.state, 'containers', id, 'exec');
    const cmd = ['sleep', '3608'];
    rmSync(file('exec-entered'), { force: true });
    clearExecsDone();

    writeFileSync(hangMarker(), '');
    const { url } = await env.client.runtime.Exec({ container_id: id, cmd, stdin: true, stdout: true, stderr: true }, deadline());
    const ws = new WebSocket(url.replace(/^http/, 'ws'), ['v5.channel.k8s.io']);
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    await until('runc exec is under way', () => existsSync(file('exec-entered')));
    ws.terminate(); // the client goes, as kubectl on ^C or a dropped connection
    await until('berthd ended the session with its client', () => endedWithCaller('"exec failed","component":"streaming"') === 1);
    expect(readdirSync(execDir).length).toBeGreaterThan(0); // kept for the Start under way

    rmSync(hangMarker());
    await until('the hung runc exec ran', () => execsDone() === 1);
    await until("the session's FIFOs are removed", () => readdirSync(execDir).length === 0);
    expect(processesRunning(cmd)).toEqual([]);
    await env.client.runtime.RemovePodSandbox({ pod_sandbox_id: podId }, deadline());
    expect(leaks(env.host())).toEqual([]);
  });
});

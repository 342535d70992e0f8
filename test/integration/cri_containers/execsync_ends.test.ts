// Where an ExecSync ends. The command is killed when the caller goes away (a client that cancels or
// runs out of its own deadline), as containerd kills it when the request's context ends: a probe
// of `sleep infinity` with no timeout of its own must not leave a process and two FIFOs behind per
// attempt. And a timeout of any length is a timeout: Node's setTimeout fires at once past 2^31-1 ms,
// which killed commands given 2,147,484 s or more at once.
import { readFileSync } from 'node:fs';
import { status as GrpcStatus } from '@grpc/grpc-js';
import { callError } from '../../harness/cri_client';
import { cgroupPids, leafCgroups } from '../../harness/cgroups';
import { fdTargets } from '../../harness/proc_fds';
import { createBerthEnv, deadline, SLEEPER, type BerthEnv } from '../recovery/berth_env';
import { until } from '../recovery/probes';

jest.setTimeout(180_000);

/** The command lines of the processes in container `id`'s cgroup, arguments joined by spaces. */
function commandsIn(env: BerthEnv, id: string): string[] {
  return leafCgroups(env.cgroupParent)
    .filter((leaf) => leaf.endsWith(`/${id}`))
    .flatMap(cgroupPids)
    .map((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ');
      } catch {
        return ''; // exited while we looked
      }
    });
}

/** berthd's descriptors on files of container `id` (its log FIFOs, and each running exec's). */
const fdsOn = (env: BerthEnv, id: string): string[] => fdTargets(env.daemon.pid).filter((target) => target.includes(`/${id}/`));

describe('ExecSync ends', () => {
  let env: BerthEnv;
  let id: string;

  beforeAll(async () => {
    env = await createBerthEnv();
    await env.start();
    const { podId, config } = await env.runPod('execsync-ends');
    id = await env.create(podId, config, 'app', SLEEPER);
    await env.client.runtime.StartContainer({ container_id: id }, deadline());
  });

  afterAll(async () => {
    await env?.close();
  });

  it('when its caller goes away: the command is killed and its FIFOs removed', async () => {
    const fifosBefore = fdsOn(env, id).length;
    const calls = Array.from({ length: 5 }, () =>
      callError(env.client.runtime.ExecSync({ container_id: id, cmd: ['sleep', '1001'], timeout: '0' }, { deadline: Date.now() + 1_000 })),
    );
    for (const err of await Promise.all(calls)) expect(GrpcStatus[err.code]).toBe('DEADLINE_EXCEEDED');
    await until('the five sleeps to be killed', () => !commandsIn(env, id).includes('sleep 1001'));
    await until("berthd to close the execs' FIFOs", () => fdsOn(env, id).length === fifosBefore);
    // The container itself runs on.
    expect((await env.status(id)).state).toBe('CONTAINER_RUNNING');
  });

  it('a timeout past 2^31-1 ms is a timeout, not an immediate kill', async () => {
    for (const timeout of ['2147484', '3000000', String(Number.MAX_SAFE_INTEGER)]) {
      const res = await env.client.runtime.ExecSync({ container_id: id, cmd: ['echo', 'ok'], timeout }, deadline());
      expect({ timeout, exit: res.exit_code, out: res.stdout.toString() }).toEqual({ timeout, exit: 0, out: 'ok\n' });
    }
  });
});

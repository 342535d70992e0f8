// PID namespace TARGET through a real berthd, checked as containerd's validateTargetContainer does:
// the target must be a running container of the same pod, at CreateContainer and again at
// StartContainer (the spec names the target's /proc/<pid>/ns/pid, which must not be left to
// whatever process takes that PID next).
import { status as GrpcStatus } from '@grpc/grpc-js';
import type { NamespaceOption } from '../../../internal/api/gen/runtime/v1/NamespaceOption';
import { callError } from '../../harness/cri_client';
import { createBerthEnv, SLEEPER, type BerthEnv } from '../recovery/berth_env';

jest.setTimeout(180_000);

const targeting = (targetId: string): NamespaceOption => ({ network: 'POD', pid: 'TARGET', ipc: 'POD', target_id: targetId });

describe('PID namespace TARGET', () => {
  let env: BerthEnv;

  beforeAll(async () => {
    env = await createBerthEnv();
    await env.start();
  });

  afterAll(async () => {
    await env?.close();
  });

  async function pidNs(id: string): Promise<string> {
    const r = await env.client.runtime.ExecSync({ container_id: id, cmd: ['readlink', '/proc/self/ns/pid'], timeout: '30' });
    return r.stdout.toString().trim();
  }

  /** A pod with one running container to target. */
  async function podWithTarget(name: string) {
    const pod = await env.runPod(name);
    const target = await env.create(pod.podId, pod.config, 'target', SLEEPER);
    await env.client.runtime.StartContainer({ container_id: target });
    return { ...pod, target };
  }

  it("joins a running container of the same pod; refuses another pod's container and an unknown one", async () => {
    const a = await podWithTarget('target-a');
    const b = await env.runPod('target-b');

    const other = await callError(env.create(b.podId, b.config, 'intruder', SLEEPER, { linux: { security_context: { namespace_options: targeting(a.target) } } }));
    expect(other.code).toBe(GrpcStatus.INVALID_ARGUMENT);
    expect(other.details).toContain(`belongs to sandbox ${a.podId}, not to sandbox ${b.podId}`);

    const unknown = await callError(env.create(b.podId, b.config, 'lost', SLEEPER, { linux: { security_context: { namespace_options: targeting('f'.repeat(64)) } } }));
    expect(unknown.code).toBe(GrpcStatus.NOT_FOUND);

    const joined = await env.create(a.podId, a.config, 'joined', SLEEPER, { linux: { security_context: { namespace_options: targeting(a.target) } } });
    await env.client.runtime.StartContainer({ container_id: joined });
    expect(await pidNs(joined)).toBe(await pidNs(a.target));
  });

  it('refuses to start when the target stopped after create', async () => {
    const a = await podWithTarget('target-stopped');
    const id = await env.create(a.podId, a.config, 'late', SLEEPER, { linux: { security_context: { namespace_options: targeting(a.target) } } });
    await env.client.runtime.StopContainer({ container_id: a.target, timeout: '10' });
    await env.waitState(a.target, 'CONTAINER_EXITED');

    const err = await callError(env.client.runtime.StartContainer({ container_id: id }));
    expect(err.code).toBe(GrpcStatus.FAILED_PRECONDITION);
    expect(err.details).toContain(`invalid target container "${a.target}": it is not running (CONTAINER_EXITED)`);
    expect(await env.status(id)).toMatchObject({ state: 'CONTAINER_EXITED', reason: 'StartError' });
  });
});

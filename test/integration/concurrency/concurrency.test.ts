// Concurrency against a real berthd: racing creates with one name, racing Start/Stop/Remove of one
// container, creates racing the removal of their pod, and many pods started at once. Each ends in one
// definite state, and the host is clean once everything is removed.
import { status as GrpcStatus, type ServiceError } from '@grpc/grpc-js';
import { callError } from '../../harness/cri_client';
import { createBerthEnv, deadline, SLEEPER, type BerthEnv } from '../recovery/berth_env';
import { cgroupPids, dbRows, leafCgroups, leaks, mountsUnder, shimsOf } from '../recovery/host_state';

jest.setTimeout(240_000);

async function outcome(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'OK';
  } catch (err) {
    return GrpcStatus[(err as ServiceError).code] ?? String(err);
  }
}

function tally(codes: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const c of codes) out[c] = (out[c] ?? 0) + 1;
  return out;
}

describe('concurrent CRI calls', () => {
  let env: BerthEnv;

  beforeAll(async () => {
    env = await createBerthEnv();
    await env.start();
  });

  afterAll(async () => {
    await env?.close();
  });

  it('50 concurrent CreateContainer with one name: exactly one wins, the rest get ALREADY_EXISTS', async () => {
    const { podId, config: pod } = await env.runPod('one-name');
    const results = await Promise.all(
      Array.from({ length: 50 }, () =>
        env.client.runtime
          .CreateContainer({ pod_sandbox_id: podId, config: env.containerConfig(pod, 'same', SLEEPER), sandbox_config: pod }, deadline())
          .then((r) => r.container_id, (err: ServiceError) => err),
      ),
    );
    const ids = results.filter((r): r is string => typeof r === 'string');
    const errors = results.filter((r): r is ServiceError => typeof r !== 'string');
    expect(ids).toHaveLength(1);
    expect(tally(errors.map((e) => GrpcStatus[e.code]!))).toEqual({ ALREADY_EXISTS: 49 });
    expect(errors.every((e) => e.details.includes(ids[0]!))).toBe(true);

    const listed = (await env.client.runtime.ListContainers({ filter: { pod_sandbox_id: podId } })).containers;
    expect(listed.map((c) => c.id)).toEqual(ids);
    expect(leaks(env.host())).toEqual([]);
    const active = dbRows(env.daemon.root).snapshots.filter((s) => s.kind === 'active').map((s) => s.key).sort();
    expect(active).toEqual([podId, ids[0]!].sort());
    await env.client.runtime.RemovePodSandbox({ pod_sandbox_id: podId }, deadline());
    expect(leaks(env.host())).toEqual([]);
  });

  it('racing Start, Stop and Remove of one container end in one definite state', async () => {
    const { podId, config: pod } = await env.runPod('racing');
    const seen: string[] = [];
    for (let round = 0; round < 6; round++) {
      const id = await env.create(podId, pod, `racer${round}`, SLEEPER);
      const r = env.client.runtime;
      const calls = [
        () => r.StartContainer({ container_id: id }, deadline()),
        () => r.StopContainer({ container_id: id, timeout: '0' }, deadline()),
        () => r.RemoveContainer({ container_id: id }, deadline()),
      ];
      // A different interleaving each round: rotate which verb goes first, and send each twice.
      const order = [...calls.slice(round % 3), ...calls.slice(0, round % 3)];
      const codes = await Promise.all([...order, ...order].map((call) => outcome(call())));
      seen.push(...codes);
      for (const code of codes) expect(['OK', 'NOT_FOUND', 'FAILED_PRECONDITION']).toContain(code);

      const after = await env.client.runtime.ContainerStatus({ container_id: id }).then(
        (res) => res.status!.state,
        (err: ServiceError) => GrpcStatus[err.code]!,
      );
      expect(['NOT_FOUND', 'CONTAINER_CREATED', 'CONTAINER_RUNNING', 'CONTAINER_EXITED']).toContain(after);
      // The state said is the state on the host: a task with processes exactly when RUNNING.
      const procs = leafCgroups(env.cgroupParent)
        .filter((l) => l.endsWith(`/${id}`))
        .flatMap(cgroupPids);
      expect({ after, running: procs.length > 0 }).toEqual({ after, running: after === 'CONTAINER_RUNNING' });
      expect(leaks(env.host())).toEqual([]);

      await r.RemoveContainer({ container_id: id }, deadline());
      expect((await callError(r.ContainerStatus({ container_id: id }))).code).toBe(GrpcStatus.NOT_FOUND);
      expect(leafCgroups(env.cgroupParent).filter((l) => l.endsWith(`/${id}`))).toEqual([]);
    }
    process.stderr.write(`start/stop/remove race outcomes: ${JSON.stringify(tally(seen))}\n`);
    await env.client.runtime.RemovePodSandbox({ pod_sandbox_id: podId }, deadline());
    expect(leaks(env.host())).toEqual([]);
  });

  it('20 pods started at once all reach Ready, and are removed cleanly at once', async () => {
    const started = await Promise.all(Array.from({ length: 20 }, (_, i) => env.runPod(`many-${i}`)));
    const ids = started.map((s) => s.podId);
    expect(new Set(ids).size).toBe(20);
    for (const id of ids) {
      const { status } = await env.client.runtime.PodSandboxStatus({ pod_sandbox_id: id });
      expect(status!.state).toBe('SANDBOX_READY');
      expect(status!.network!.ip).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    }
    const ips = new Set(await Promise.all(ids.map(async (id) => (await env.client.runtime.PodSandboxStatus({ pod_sandbox_id: id })).status!.network!.ip)));
    expect(ips.size).toBe(20);
    expect(shimsOf(env.daemon.socket)).toHaveLength(20);
    expect(leaks(env.host())).toEqual([]);

    // 20 IDs over 16 hex digits: two share a first digit, and that prefix is ambiguous.
    const first = ids.map((id) => id[0]!);
    const shared = first.find((c, i) => first.indexOf(c) !== i)!;
    const amb = await callError(env.client.runtime.PodSandboxStatus({ pod_sandbox_id: shared }));
    expect(amb.code).toBe(GrpcStatus.INVALID_ARGUMENT);
    expect(amb.details).toContain(`prefix "${shared}" is ambiguous`);

    const codes = await Promise.all(ids.map((id) => outcome(env.client.runtime.RemovePodSandbox({ pod_sandbox_id: id }, deadline()))));
    expect(tally(codes)).toEqual({ OK: 20 });
    expect((await env.client.runtime.ListPodSandbox({})).items).toEqual([]);
    expect(leaks(env.host())).toEqual([]);
    expect(mountsUnder(env.dir)).toEqual([]);
    expect(shimsOf(env.daemon.socket)).toEqual([]);
    expect(env.cni.allocatedIPs()).toEqual([]);
    expect(env.cni.bridgePorts()).toEqual([]);
  });

  it('a stopped pod takes no new container: NOT_FOUND, as containerd finds no sandbox task, and nothing left', async () => {
    const { podId, config: pod } = await env.runPod('stopped');
    const before = dbRows(env.daemon.root).snapshots.length;
    await env.client.runtime.StopPodSandbox({ pod_sandbox_id: podId }, deadline());
    const verbose = await env.client.runtime.PodSandboxStatus({ pod_sandbox_id: podId, verbose: true });
    expect(verbose.status!.state).toBe('SANDBOX_NOTREADY');
    // No pause process any more: the verbose pid is 0, as containerd's handleSandboxExit leaves it.
    expect((JSON.parse(verbose.info.info!) as { pid: number }).pid).toBe(0);

    const err = await callError(
      env.client.runtime.CreateContainer({ pod_sandbox_id: podId, config: env.containerConfig(pod, 'late', SLEEPER), sandbox_config: pod }, deadline()),
    );
    expect({ code: GrpcStatus[err.code], details: err.details }).toEqual({
      code: 'NOT_FOUND',
      details: `failed to get sandbox container task: no running task found: task ${podId} not found`,
    });
    expect((await env.client.runtime.ListContainers({ filter: { pod_sandbox_id: podId } })).containers).toEqual([]);
    expect(dbRows(env.daemon.root).snapshots).toHaveLength(before);
    await env.client.runtime.RemovePodSandbox({ pod_sandbox_id: podId }, deadline());
    expect(leaks(env.host())).toEqual([]);
  });

  it('creates racing RemovePodSandbox: once it answers OK, none of their containers is left', async () => {
    for (let round = 0; round < 3; round++) {
      const { podId, config: pod } = await env.runPod(`removed-${round}`);
      const creates: Promise<string>[] = [];
      let removed = false;
      const removal = env.client.runtime.RemovePodSandbox({ pod_sandbox_id: podId }, deadline()).finally(() => (removed = true));
      // Creates keep arriving for as long as the removal runs, so some land in each of its phases.
      for (let i = 0; !removed && i < 300; i++) {
        creates.push(
          outcome(env.client.runtime.CreateContainer({ pod_sandbox_id: podId, config: env.containerConfig(pod, `c${i}`, SLEEPER), sandbox_config: pod }, deadline())),
        );
        await new Promise((r) => setTimeout(r, 2));
      }
      await removal;
      for (const code of await Promise.all(creates)) expect(['OK', 'NOT_FOUND']).toContain(code);
      expect((await env.client.runtime.ListContainers({})).containers.filter((c) => c.pod_sandbox_id === podId)).toEqual([]);
      expect(dbRows(env.daemon.root).snapshots.filter((s) => s.kind === 'active')).toEqual([]);
      expect(leaks(env.host())).toEqual([]);
    }
  });
});

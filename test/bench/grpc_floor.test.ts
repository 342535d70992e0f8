// The gRPC floor answers each call with the answer it was last given for that method and filter
// shape, through berth's own message converters (what a client decodes equals what berthd
// answered); a method or filter given no answer fails rather than answering empty; stop() ends the
// process and its socket.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GrpcFloor } from './grpc_floor';
import { querySchedule, LIST_CALLS, QUERY_FIGURES, STATS_CALLS, STATUS_PASSES } from './scale_queries';
import type { KubeletPod } from './kubelet_pod';

const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('GrpcFloor', () => {
  let dir: string;
  let floor: GrpcFloor | undefined;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'grpc-floor-'));
  });
  afterEach(async () => {
    await floor?.stop();
    floor = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers what it was given, per method and filter shape, and refuses one it was given nothing for', async () => {
    floor = await GrpcFloor.start(dir);
    const containers = [1, 2].map((k) => ({
      id: `c${k}`,
      pod_sandbox_id: 'p',
      metadata: { name: `app-${k}`, attempt: 0 },
      image: { image: 'busybox', annotations: {}, user_specified_image: '', runtime_handler: '' },
      image_ref: 'sha256:ab',
      state: 'CONTAINER_RUNNING',
      created_at: '1700000000000000000',
      labels: { 'io.kubernetes.pod.uid': 'u' },
      annotations: {},
      image_id: '',
    }));
    await floor.answer('runtime', 'ListContainers', { containers }, { filter: { pod_sandbox_id: 'p' } });
    await floor.answer('runtime', 'ListContainers', { containers: containers.slice(1) }, { filter: { state: { state: 'CONTAINER_RUNNING' } } });
    await floor.answer('runtime', 'ListContainers', { containers: [] });
    const listed = await floor.cri.runtime.ListContainers({ filter: { pod_sandbox_id: 'anything' } });
    const shown = (c: { id: string; state: string; created_at: string; labels: Record<string, string> }) => [c.id, c.state, c.created_at, c.labels];
    expect(listed.containers.map(shown)).toEqual(containers.map(shown));
    const running = await floor.cri.runtime.ListContainers({ filter: { state: { state: 'CONTAINER_CREATED' } } });
    expect(running.containers.map((c) => c.id)).toEqual(['c2']);
    expect((await floor.cri.runtime.ListContainers({})).containers).toEqual([]);
    await expect(floor.cri.runtime.ListContainers({ filter: { label_selector: { a: 'b' } } })).rejects.toMatchObject({
      code: 9,
      details: expect.stringContaining('runtime/ListContainers?label_selector'),
    });

    await floor.answer('image', 'ImageFsInfo', { image_filesystems: [{ timestamp: '5', fs_id: { mountpoint: '/m' } }] });
    const fs = await floor.cri.image.ImageFsInfo({});
    expect(fs.image_filesystems[0]!.fs_id!.mountpoint).toBe('/m');

    await expect(floor.cri.runtime.Version({})).rejects.toMatchObject({ code: 9, details: expect.stringContaining('runtime/Version') });
  });

  it('stop() kills the process and removes its socket', async () => {
    floor = await GrpcFloor.start(dir);
    const pid = floor.pid;
    expect(existsSync(join(dir, 'grpc-floor.sock'))).toBe(true);
    await floor.stop();
    floor = undefined;
    expect(isAlive(pid)).toBe(false);
    expect(existsSync(join(dir, 'grpc-floor.sock'))).toBe(false);
  });
});

describe('querySchedule', () => {
  const pods: KubeletPod[] = [0, 1, 2].map((k) => ({ podId: `pod${k}`, uid: `uid${k}`, config: {}, containerIds: [`c${k}a`, `c${k}b`] }));

  it('makes every figure its rounds: lists and ImageFsInfo LIST_CALLS, stats STATS_CALLS, STATUS_PASSES statuses per pod and container', () => {
    const queries = querySchedule(pods);
    const count = (figure: string) => queries.filter((q) => q.figure === figure).length;
    for (const figure of QUERY_FIGURES) {
      const want = figure.endsWith('Stats') ? STATS_CALLS : figure === 'PodSandboxStatus' ? 3 * STATUS_PASSES : figure === 'ContainerStatus' ? 6 * STATUS_PASSES : LIST_CALLS;
      expect([figure, count(figure)]).toEqual([figure, want]);
    }
  });

  it('leaves out only the stats calls when asked to (the earlier rounds of the scale scenario)', () => {
    const withStats = querySchedule(pods);
    const without = querySchedule(pods, false);
    expect(without.some((q) => q.figure.endsWith('Stats'))).toBe(false);
    expect(without).toEqual(withStats.filter((q) => !q.figure.endsWith('Stats')));
  });

  it('filters by a different pod each round and asks for every listed item', () => {
    const queries = querySchedule(pods);
    const bySandbox = queries.filter((q) => q.figure === 'ListContainers (pod_sandbox_id)').slice(0, 3);
    expect(bySandbox.map((q) => q.request)).toEqual(pods.map((p) => ({ filter: { pod_sandbox_id: p.podId } })));
    expect(queries.find((q) => q.figure === 'ListContainers')).toMatchObject({ listed: 'containers', atLeast: 6 });
    expect(queries.find((q) => q.figure === 'ListPodSandbox')).toMatchObject({ listed: 'items', atLeast: 3 });
  });
});

// The four stats RPC handlers over real stores, a real overlay snapshotter, real cgroups holding
// real processes (placed where runc would put each container: the spec's cgroupsPath) and a real
// network namespace. Only runc itself is missing: the processes are started by the test.
import { execFileSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ContainerStats } from '../../../internal/api/gen/runtime/v1/ContainerStats';
import { containerStats } from '../../../internal/cri/server/container_stats';
import { listContainerStats } from '../../../internal/cri/server/container_stats_list';
import { podSandboxStats } from '../../../internal/cri/server/sandbox_stats';
import { listPodSandboxStats } from '../../../internal/cri/server/sandbox_stats_list';
import type { CriService } from '../../../internal/cri/server/service';
import { pidInNetns } from '../../../internal/cri/stats/net_dev';
import type { ContainerMetadata, ContainerStatus } from '../../../internal/cri/store/container';
import type { SandboxMetadata } from '../../../internal/cri/store/sandbox';
import { kindOf, messageOf } from '../../../internal/errdefs/errors';
import type { MetadataDB } from '../../../internal/metadata/db';
import { withTempMount } from '../../../internal/mount';
import { NetNS } from '../../../internal/netns/netns';
import { CgroupFixture } from './cgroup_fixture';
import { openStatsService } from './stats_service';

const MiB = 1024 * 1024;
const num = (v: { value?: unknown } | null | undefined): number => Number(v?.value);
const errOf = (p: Promise<unknown>): Promise<unknown> => p.then(() => undefined, (e: unknown) => e);

const ID = { podA: 'a'.repeat(64), podB: 'b'.repeat(64), podC: 'c'.repeat(64), c1: '1'.repeat(64), c2: '2'.repeat(64), c3: '3'.repeat(64) };

describe('stats handlers', () => {
  let dir: string;
  let db: MetadataDB;
  let svc: CriService;
  let cg: CgroupFixture;
  let ns: NetNS;
  let pause: ChildProcess;

  function addSandbox(id: string, name: string, cgroupParent: string, state: 'ready' | 'notready', pid = 0, netnsPath = ''): void {
    const rt = svc.rt;
    const metadata: SandboxMetadata = {
      id, name, runtimeHandler: 'runc', runtimeType: 'io.containerd.runc.v2', netnsPath, ip: '', additionalIps: [],
      image: 'pause', imageId: 'sha256:p', snapshotKey: id, rootDir: dir, stateDir: dir, cgroupParent,
      config: { metadata: { name, uid: `uid-${name}`, namespace: 'ns', attempt: 0 }, labels: { pod: name }, annotations: { note: name } } as unknown as SandboxMetadata['config'],
    };
    rt.sandboxes.add(metadata, { state, pid, createdAt: '1', exitStatus: 0, exitedAt: '0' });
  }

  async function addContainer(id: string, name: string, sandboxId: string, cgroupsPath: string, running: boolean, tier: string): Promise<void> {
    const rt = svc.rt;
    const mounts = await rt.snapshotter.prepare(id, '');
    await withTempMount(mounts, async (root) => writeFileSync(join(root, 'data'), Buffer.alloc(MiB, 7)));
    const metadata: ContainerMetadata = {
      id, name, sandboxId, imageRef: 'busybox', imageId: 'sha256:b', logPath: '', snapshotKey: id, stateDir: dir, rootDir: dir,
      stopSignal: 'SIGTERM', runtimeHandler: 'runc', runtimeType: 'io.containerd.runc.v2',
      config: { metadata: { name, attempt: 0 }, labels: { tier, name }, annotations: { a: name } } as unknown as ContainerMetadata['config'],
    };
    const status: ContainerStatus = {
      pid: 0, createdAt: '1', startedAt: '2', finishedAt: running ? '0' : '3', exitCode: 0, reason: '', message: '', unknown: false,
    };
    rt.containers.add(metadata, { ociVersion: '1.0.2', linux: { cgroupsPath } }, status);
  }

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'berth-stats-'));
    ({ db, svc } = openStatsService(dir));

    cg = new CgroupFixture();
    ns = await NetNS.create(join(dir, 'netns'));
    execFileSync('nsenter', [`--net=${ns.path}`, 'ip', 'link', 'add', 'eth0', 'type', 'veth', 'peer', 'name', 'peer0']);

    // Pod A: its own cgroup parent holding a "pause" process (in the pod's netns) and container c1;
    // c2 has exited (its cgroup is gone).
    const podA = cg.create('podA');
    const c1 = cg.create('podA/c1');
    pause = await cg.run(podA, ['nsenter', `--net=${ns.path}`, 'sleep', '1000']);
    while (!pidInNetns(pause.pid!, ns.path)) await new Promise((r) => setTimeout(r, 5));
    await cg.run(c1, [process.execPath, '-e', `globalThis.h = Buffer.alloc(30 * 1024 * 1024, 1); console.log('ready'); setInterval(() => {}, 1e9);`], 'ready');
    addSandbox(ID.podA, 'pod-a', podA, 'ready', pause.pid!, ns.path);
    await addContainer(ID.c1, 'c1', ID.podA, c1, true, 'web');
    await addContainer(ID.c2, 'c2', ID.podA, `${podA}/c2`, false, 'db');

    // Pod B: no cgroup parent, so its usage is the sum of its members (here: c3).
    const c3 = cg.create('c3');
    await cg.sleep(c3);
    await cg.sleep(c3);
    addSandbox(ID.podB, 'pod-b', '', 'ready');
    await addContainer(ID.c3, 'c3', ID.podB, c3, true, 'web');

    addSandbox(ID.podC, 'pod-c', '', 'notready');
  });

  afterAll(async () => {
    await cg.destroy();
    ns.remove();
    for (const id of [ID.c1, ID.c2, ID.c3]) await svc.rt.snapshotter.remove(id).catch(() => undefined);
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('ContainerStats of a running container: attributes, cpu, memory, writable layer', async () => {
    const { stats } = await containerStats(svc, { container_id: ID.c1 });
    expect(stats!.attributes).toEqual({ id: ID.c1, metadata: { name: 'c1', attempt: 0 }, labels: { tier: 'web', name: 'c1' }, annotations: { a: 'c1' } });
    expect(num(stats!.cpu!.usage_core_nano_seconds)).toBeGreaterThan(0);
    expect(num(stats!.memory!.working_set_bytes)).toBeGreaterThanOrEqual(30 * MiB);
    expect(stats!.memory!.available_bytes).toEqual({ value: '0' }); // no limit: 0, as containerd sends it
    expect(stats!.writable_layer!.fs_id).toEqual({ mountpoint: join(svc.config.root, 'overlayfs') });
    expect(num(stats!.writable_layer!.used_bytes)).toBeGreaterThanOrEqual(MiB);
    expect(num(stats!.writable_layer!.inodes_used)).toBeGreaterThanOrEqual(1);
  });

  test('ContainerStats of an exited container (by unique prefix): what is known, no cpu or memory', async () => {
    const { stats } = await containerStats(svc, { container_id: '222' });
    expect(stats!.attributes!.id).toBe(ID.c2);
    expect(stats!.cpu).toBeUndefined();
    expect(stats!.memory).toBeUndefined();
    expect(num(stats!.writable_layer!.used_bytes)).toBeGreaterThanOrEqual(MiB);
  });

  test('ContainerStats of an unknown container is NotFound naming it', async () => {
    const err = await errOf(containerStats(svc, { container_id: 'nope' }));
    expect(kindOf(err)).toBe('NotFound');
    expect(messageOf(err)).toContain('nope');
  });

  test('ListContainerStats filters by id, pod and labels', async () => {
    const ids = async (filter: Parameters<typeof listContainerStats>[1]['filter']): Promise<string[]> =>
      (await listContainerStats(svc, { filter })).stats!.map((s: ContainerStats) => s.attributes!.id!).sort();
    expect(await ids(null)).toEqual([ID.c1, ID.c2, ID.c3]);
    expect(await ids({ id: '333', pod_sandbox_id: '', label_selector: {} })).toEqual([ID.c3]);
    expect(await ids({ id: 'unknown', pod_sandbox_id: '', label_selector: {} })).toEqual([]);
    expect(await ids({ id: '', pod_sandbox_id: 'aaa', label_selector: {} })).toEqual([ID.c1, ID.c2]);
    expect(await ids({ id: '', pod_sandbox_id: '', label_selector: { tier: 'web' } })).toEqual([ID.c1, ID.c3]);
    expect(await ids({ id: '', pod_sandbox_id: ID.podA, label_selector: { tier: 'web' } })).toEqual([ID.c1]);
  });

  test('PodSandboxStats of a pod with a cgroup parent: its cgroup, netns, processes, containers', async () => {
    const { stats } = await podSandboxStats(svc, { pod_sandbox_id: 'aaa' });
    expect(stats!.attributes).toEqual({ id: ID.podA, metadata: { name: 'pod-a', uid: 'uid-pod-a', namespace: 'ns', attempt: 0 }, labels: { pod: 'pod-a' }, annotations: { note: 'pod-a' } });
    const linux = stats!.linux!;
    // The pod cgroup holds c1 (30 MiB held) and the pause process.
    expect(num(linux.memory!.working_set_bytes)).toBeGreaterThanOrEqual(30 * MiB);
    expect(num(linux.cpu!.usage_core_nano_seconds)).toBeGreaterThan(0);
    expect(linux.network!.default_interface!.name).toBe('eth0');
    expect(linux.network!.interfaces!.map((i) => i.name).sort()).toEqual(['eth0', 'peer0']);
    // Running containers' processes only (c1's node); not the pause process, not exited c2.
    expect(num(linux.process!.process_count)).toBe(1);
    expect(linux.containers!.map((c) => c.attributes!.id).sort()).toEqual([ID.c1, ID.c2]);
  });

  test('PodSandboxStats of a pod without a cgroup parent sums its containers', async () => {
    const { stats } = await podSandboxStats(svc, { pod_sandbox_id: ID.podB });
    const linux = stats!.linux!;
    expect(num(linux.process!.process_count)).toBe(2);
    const c3 = linux.containers![0]!;
    // Read a moment apart, so the two figures may differ by a few pages.
    expect(Math.abs(num(linux.memory!.usage_bytes) - num(c3.memory!.usage_bytes))).toBeLessThan(MiB / 4);
    expect(num(linux.memory!.usage_bytes)).toBeGreaterThan(0);
    expect(linux.network).toBeUndefined(); // host network: no counters of its own
  });

  test('PodSandboxStats: NotFound for an unknown pod, Unavailable for one that is not ready', async () => {
    const missing = await errOf(podSandboxStats(svc, { pod_sandbox_id: 'nope' }));
    expect(kindOf(missing)).toBe('NotFound');
    expect(messageOf(missing)).toContain('nope');
    const notReady = await errOf(podSandboxStats(svc, { pod_sandbox_id: ID.podC }));
    expect(kindOf(notReady)).toBe('Unavailable');
    expect(messageOf(notReady)).toContain(ID.podC);
  });

  test('ListPodSandboxStats: ready pods only, filtered by id prefix and labels', async () => {
    const ids = async (filter: Parameters<typeof listPodSandboxStats>[1]['filter']): Promise<string[]> =>
      (await listPodSandboxStats(svc, { filter })).stats!.map((s) => s.attributes!.id!).sort();
    expect(await ids(null)).toEqual([ID.podA, ID.podB]);
    expect(await ids({ id: 'bb', label_selector: {} })).toEqual([ID.podB]);
    expect(await ids({ id: '', label_selector: { pod: 'pod-a' } })).toEqual([ID.podA]);
    expect(await ids({ id: ID.podC, label_selector: {} })).toEqual([]);
  });
});

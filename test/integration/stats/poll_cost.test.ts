// What the kubelet's 10-second stats pass (ListContainerStats, ListPodSandboxStats, ImageFsInfo)
// costs the daemon, counted in work rather than time: pods as the kubelet makes them (a cgroup
// parent each, holding its containers' cgroups, with real processes), containers on real overlay
// snapshots over a committed image layer. The counts are what kept berthd's CPU under the polling
// several times containerd's: every pod reading walked its whole cgroup tree (and, with one shared
// parent, every pod's tree: quadratic in pods), and every snapshot, image layers included, was walked
// again by ImageFsInfo right after the container stats had measured it.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listContainerStats } from '../../../internal/cri/server/container_stats_list';
import { forgetImageFsUsage, imageFsInfo, keepImageFsFigure } from '../../../internal/cri/server/image_fs_info';
import { listPodSandboxStats } from '../../../internal/cri/server/sandbox_stats_list';
import { CriService } from '../../../internal/cri/server/service';
import type { MetadataDB } from '../../../internal/metadata/db';
import { withTempMount } from '../../../internal/mount';
import { CgroupFixture } from './cgroup_fixture';
import { addReadySandbox, addRunningContainer, hexId, openStatsService } from './stats_service';
// The module object itself (an `import * as` gets a copy), so a spy on it sees the readers' calls.
import fs = require('node:fs');

const PODS = 3;
const PER_POD = 2;
const LAYER = 'layer-1';
const num = (v: { value?: unknown } | null | undefined): number => Number(v?.value);

jest.setTimeout(120_000);

describe('the stats pass over pods with their own cgroup parents', () => {
  let dir: string;
  let db: MetadataDB;
  let svc: CriService;
  const cg = new CgroupFixture();
  const containerIds: string[] = [];
  const podIds: string[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'berth-poll-cost-'));
    ({ db, svc } = openStatsService(dir));
    // No blobs: ImageFsInfo's content part is not what is counted here.
    Object.assign(svc.rt, { content: { walk: async function* () {} } });
    const sn = svc.rt.snapshotter;
    // The image layer the containers run on: a few files, committed.
    await withTempMount(await sn.prepare('layer-extract', ''), async (root) => {
      for (let i = 0; i < 20; i++) writeFileSync(join(root, `f${i}`), Buffer.alloc(4096, i));
    });
    await sn.commit(LAYER, 'layer-extract');
    for (let p = 0; p < PODS; p++) {
      const podId = addReadySandbox(svc, p, dir, cg.create(`pod${p}`));
      podIds.push(podId);
      await sn.prepare(podId, LAYER); // the pause container's rootfs
      for (let c = 0; c < PER_POD; c++) {
        const id = hexId('c', p * PER_POD + c);
        containerIds.push(id);
        const cgroup = cg.create(`pod${p}/c${c}`);
        await cg.sleep(cgroup);
        await withTempMount(await sn.prepare(id, LAYER), async (root) => writeFileSync(join(root, 'written'), Buffer.alloc(8192, 1)));
        addRunningContainer(svc, id, p, c, podId, dir, cgroup);
      }
    }
  });

  afterEach(() => {
    jest.restoreAllMocks();
  });

  /** A daemon over the same pods that has measured nothing yet (the figures kept between calls are per runtime). */
  const freshDaemon = () => new CriService({ ...svc.deps, runtime: { ...svc.rt } });

  afterAll(async () => {
    await cg.destroy();
    for (const key of [...containerIds, ...podIds, LAYER]) await svc.rt.snapshotter.remove(key).catch(() => undefined);
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('ListPodSandboxStats lists each container cgroup once and walks no pod cgroup tree; process counts stay right', async () => {
    const listed: string[] = [];
    const readdirSync = fs.readdirSync;
    jest.spyOn(fs, 'readdirSync').mockImplementation(((path: fs.PathLike, options?: unknown) => {
      if (String(path).includes(cg.root)) listed.push(String(path));
      return (readdirSync as (p: fs.PathLike, o?: unknown) => unknown)(path, options);
    }) as typeof fs.readdirSync);
    const { stats } = await listPodSandboxStats(svc, { filter: null });
    expect(stats).toHaveLength(PODS);
    for (const pod of stats!) {
      expect(num(pod.linux!.process!.process_count)).toBe(PER_POD); // one sleep per running container
      expect(pod.linux!.containers).toHaveLength(PER_POD);
      expect(pod.linux!.cpu).toBeDefined();
      expect(pod.linux!.memory).toBeDefined();
    }
    // A container's processes are counted in its own cgroup (one listing each); the pod's count is
    // their sum, so nothing lists a pod's cgroup.
    expect(listed).toHaveLength(PODS * PER_POD);
    expect(new Set(listed).size).toBe(listed.length);
    expect(listed.some((p) => /\/pod\d+$/.test(p))).toBe(false);
  });

  test('one stats pass measures each snapshot at most once, and a committed layer only the first time', async () => {
    const daemon = freshDaemon();
    const sn = daemon.rt.snapshotter;
    const measured: string[] = [];
    const usage = sn.usage.bind(sn);
    jest.spyOn(sn, 'usage').mockImplementation(async (key: string) => {
      measured.push(key);
      return usage(key);
    });
    const pass = async () => {
      forgetImageFsUsage(daemon.rt); // ImageFsInfo's own few-second cache aside: count what a fresh figure costs
      await listContainerStats(daemon, { filter: null });
      await listPodSandboxStats(daemon, { filter: null });
      return imageFsInfo(daemon, {});
    };
    const first = await pass();
    const times = (key: string) => measured.filter((k) => k === key).length;
    for (const key of [...containerIds, ...podIds, LAYER]) expect(times(key)).toBeLessThanOrEqual(1);

    measured.length = 0;
    const second = await pass();
    expect(times(LAYER)).toBe(0); // committed: its figure cannot change
    for (const key of [...containerIds, ...podIds]) expect(times(key)).toBeLessThanOrEqual(1);
    expect(second.image_filesystems![0]!.used_bytes).toEqual(first.image_filesystems![0]!.used_bytes);

    // The figure is still every snapshot's own directory: the layer, each pause rootfs, each writable layer.
    jest.restoreAllMocks();
    let bytes = 0;
    let inodes = 0;
    for (const key of [...containerIds, ...podIds, LAYER]) {
      const u = await sn.usage(key);
      bytes += u.size;
      inodes += u.inodes;
    }
    const [image] = second.image_filesystems!;
    expect(num(image!.used_bytes)).toBe(bytes);
    expect(num(image!.inodes_used)).toBe(inodes);
    expect(BigInt(String(image!.timestamp))).toBeLessThanOrEqual(BigInt(Date.now()) * 1_000_000n);
  });

  test('ImageFsInfo answers from its last figure while it measures again, and waits once that figure is old or forgotten', async () => {
    const daemon = freshDaemon();
    const sn = daemon.rt.snapshotter;
    const walk = sn.walk.bind(sn);
    // Each walk (one per measurement) waits for its gate, so "answered without measuring" is visible.
    const gates: Array<() => void> = [];
    jest.spyOn(sn, 'walk').mockImplementation(async (fn) => {
      await new Promise<void>((open) => gates.push(open));
      return walk(fn);
    });
    const settled = async <T>(p: Promise<T>): Promise<boolean> => {
      let done = false;
      void p.then(() => (done = true), () => (done = true));
      for (let i = 0; i < 20; i++) await Promise.resolve();
      return done;
    };
    const stamp = (r: Awaited<ReturnType<typeof imageFsInfo>>) => String(r.image_filesystems![0]!.timestamp);
    const start = Date.now();
    const now = jest.spyOn(Date, 'now').mockReturnValue(start);

    const firstCall = imageFsInfo(daemon, {});
    expect(await settled(firstCall)).toBe(false); // nothing measured yet: it waits
    gates.shift()!();
    const first = await firstCall;
    expect(sn.walk).toHaveBeenCalledTimes(1);

    now.mockReturnValue(start + 3_000); // fresh: no measurement
    expect(stamp(await imageFsInfo(daemon, {}))).toBe(stamp(first));
    expect(sn.walk).toHaveBeenCalledTimes(1);

    now.mockReturnValue(start + 15_000); // stale: the last figure now, a measurement behind it
    const staleCall = imageFsInfo(daemon, {});
    expect(await settled(staleCall)).toBe(true);
    expect(stamp(await staleCall)).toBe(stamp(first));
    expect(sn.walk).toHaveBeenCalledTimes(2);
    expect(stamp(await imageFsInfo(daemon, {}))).toBe(stamp(first)); // one measurement at a time
    expect(sn.walk).toHaveBeenCalledTimes(2);
    gates.shift()!();
    await new Promise((r) => setImmediate(r));

    now.mockReturnValue(start + 40_000); // too old: waits for a new one
    const oldCall = imageFsInfo(daemon, {});
    expect(await settled(oldCall)).toBe(false);
    gates.shift()!();
    await oldCall;
    expect(sn.walk).toHaveBeenCalledTimes(3);

    forgetImageFsUsage(daemon.rt); // after a pull or a removal: the next call waits too
    const afterForget = imageFsInfo(daemon, {});
    expect(await settled(afterForget)).toBe(false);
    gates.shift()!();
    await afterForget;
    expect(sn.walk).toHaveBeenCalledTimes(4);
  });

  test('measuring hundreds of snapshots whose figures are known lets the event loop turn on the way', async () => {
    const daemon = freshDaemon();
    const sn = daemon.rt.snapshotter;
    const many = Array.from({ length: 300 }, (_, i) => ({ name: `layer-${i}`, kind: 'committed' as const, parent: '', labels: {}, created: new Date(0), updated: new Date(0) }));
    jest.spyOn(sn, 'walk').mockImplementation(async (fn) => {
      for (const info of many) await fn(info);
    });
    jest.spyOn(sn, 'usage').mockResolvedValue({ size: 4096, inodes: 1 });
    let turned = false;
    setImmediate(() => (turned = true));
    const answer = await imageFsInfo(daemon, {});
    expect(num(answer.image_filesystems![0]!.used_bytes)).toBe(300 * 4096);
    expect(turned).toBe(true); // an I/O turn ran while it measured, not only after
  });

  test('a daemon that keeps its figure measures in the background: a first call is served from it, without a walk', async () => {
    const daemon = freshDaemon();
    const sn = daemon.rt.snapshotter;
    const walk = sn.walk.bind(sn);
    const walked: Array<() => void> = [];
    jest.spyOn(sn, 'walk').mockImplementation(async (fn) => {
      await walk(fn);
      walked.shift()?.();
    });
    /** Resolves once `n` more walks have finished. */
    const walks = async (n: number): Promise<void> => {
      for (let i = 0; i < n; i++) await new Promise<void>((resolve) => walked.push(resolve));
    };
    const firstWalk = walks(1);
    const stop = keepImageFsFigure(daemon, { everyMs: 50, firstAfterMs: 20 });
    try {
      expect(sn.walk).not.toHaveBeenCalled(); // not in the way of the first calls after serving
      await firstWalk; // begun on its own, nobody asking
      await new Promise((r) => setImmediate(r));
      const before = (sn.walk as jest.Mock).mock.calls.length;
      const answer = await imageFsInfo(daemon, {});
      expect(num(answer.image_filesystems![0]!.used_bytes)).toBeGreaterThan(0);
      expect((sn.walk as jest.Mock).mock.calls.length).toBe(before); // served from the background's figure
      await walks(2); // and it goes on measuring
    } finally {
      stop();
    }
  });
});

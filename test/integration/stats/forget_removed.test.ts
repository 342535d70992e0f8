// The stats collector's state of containers and pods since removed goes with the background
// ImageFsInfo measurement, not only with ListContainerStats / ListPodSandboxStats: a client that asks
// ContainerStats and PodSandboxStats one by one (and never lists) left a CPU point per container and
// pod and a writable-layer figure per snapshot for the life of the daemon (~0.9 KiB a pod).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { containerStats, statsCollector } from '../../../internal/cri/server/container_stats';
import { keepImageFsFigure } from '../../../internal/cri/server/image_fs_info';
import { podSandboxStats } from '../../../internal/cri/server/sandbox_stats';
import type { CriService } from '../../../internal/cri/server/service';
import type { MetadataDB } from '../../../internal/metadata/db';
import { CgroupFixture } from './cgroup_fixture';
import { addReadySandbox, addRunningContainer, hexId, openStatsService } from './stats_service';

jest.setTimeout(60_000);

describe('stats of removed containers and pods', () => {
  let dir: string;
  let db: MetadataDB;
  let svc: CriService;
  const cg = new CgroupFixture();

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'berth-stats-forget-'));
    ({ db, svc } = openStatsService(dir));
    Object.assign(svc.rt, { content: { walk: async function* () {} } }); // ImageFsInfo's blobs: none here
  });

  afterAll(async () => {
    await cg.destroy();
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('are forgotten by the background measurement once the records are gone', async () => {
    const sn = svc.rt.snapshotter;
    const pods: string[] = [];
    const containers: string[] = [];
    for (let p = 0; p < 3; p++) {
      const podId = addReadySandbox(svc, p, dir, cg.create(`pod${p}`));
      pods.push(podId);
      await sn.prepare(podId, '');
      const id = hexId('c', p);
      containers.push(id);
      await sn.prepare(id, '');
      addRunningContainer(svc, id, p, 0, podId, dir, cg.create(`pod${p}/c0`));
      await containerStats(svc, { container_id: id });
      await podSandboxStats(svc, { pod_sandbox_id: podId });
    }
    const collector = statsCollector(svc);
    expect(collector.kept.cpuPoints).toBe(6); // a container and a pod each
    expect(collector.kept.layerFigures).toBeGreaterThanOrEqual(3);

    // Removed as RemovePodSandbox removes them: the records, then the snapshots.
    for (const id of containers) svc.rt.containers.delete(id);
    for (const id of pods) svc.rt.sandboxes.delete(id);
    for (const key of [...containers, ...pods]) await sn.remove(key);

    const stop = keepImageFsFigure(svc, { everyMs: 50, firstAfterMs: 10 });
    try {
      // A guard against hanging, not a timing assertion: the figures go at a tick.
      for (let i = 0; i < 600 && (collector.kept.cpuPoints > 0 || collector.kept.layerFigures > 0); i++) await sleep(50);
      expect(collector.kept).toEqual({ cpuPoints: 0, layerFigures: 0 });
    } finally {
      stop();
    }
  });
});

// What kubelet's 10-second poll costs: ListContainerStats and ListPodSandboxStats over 10 pods of
// 10 containers, each with a real cgroup holding a sleep and a real snapshot. The figures are
// printed (not asserted: no timing asserts); the test asserts every container got its stats.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { listContainerStats } from '../../../internal/cri/server/container_stats_list';
import { listPodSandboxStats } from '../../../internal/cri/server/sandbox_stats_list';
import type { CriService } from '../../../internal/cri/server/service';
import type { MetadataDB } from '../../../internal/metadata/db';
import { CgroupFixture } from './cgroup_fixture';
import { addReadySandbox, addRunningContainer, hexId, openStatsService } from './stats_service';

const PODS = 10;
const PER_POD = 10;
const ROUNDS = 20;

jest.setTimeout(120_000);

describe('stats cost over 100 containers', () => {
  let dir: string;
  let db: MetadataDB;
  let svc: CriService;
  const cg = new CgroupFixture();

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'berth-stats-cost-'));
    ({ db, svc } = openStatsService(dir));
    for (let p = 0; p < PODS; p++) {
      const podId = addReadySandbox(svc, p, dir, cg.create(`pod${p}`));
      for (let c = 0; c < PER_POD; c++) {
        const id = hexId('c', p * PER_POD + c);
        const cgroup = cg.create(`pod${p}/c${c}`);
        await cg.sleep(cgroup);
        await svc.rt.snapshotter.prepare(id, '');
        addRunningContainer(svc, id, p, c, podId, dir, cgroup);
      }
    }
  });

  afterAll(async () => {
    await cg.destroy();
    for (const c of svc.rt.containers.list()) await svc.rt.snapshotter.remove(c.id).catch(() => undefined);
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('every container and pod gets cpu, memory and writable layer; cost per call printed', async () => {
    const t0 = performance.now();
    const cold = await listContainerStats(svc, { filter: null });
    const coldMs = performance.now() - t0;
    expect(cold.stats).toHaveLength(PODS * PER_POD);
    for (const s of cold.stats!) {
      expect(s.cpu).toBeDefined();
      expect(s.memory).toBeDefined();
      expect(s.writable_layer).toBeDefined();
    }
    const t1 = performance.now();
    for (let i = 0; i < ROUNDS; i++) await listContainerStats(svc, { filter: null });
    const warmMs = (performance.now() - t1) / ROUNDS;

    const t2 = performance.now();
    let pods = await listPodSandboxStats(svc, { filter: null });
    for (let i = 1; i < ROUNDS; i++) pods = await listPodSandboxStats(svc, { filter: null });
    const podMs = (performance.now() - t2) / ROUNDS;
    expect(pods.stats).toHaveLength(PODS);
    for (const p of pods.stats!) {
      expect(Number(p.linux!.process!.process_count!.value)).toBe(PER_POD);
      expect(p.linux!.containers).toHaveLength(PER_POD);
    }
    // Neither list holds the event loop from start to end: another call gets its turn meanwhile.
    for (const list of [() => listContainerStats(svc, { filter: null }), () => listPodSandboxStats(svc, { filter: null })]) {
      let turned = false;
      setImmediate(() => (turned = true));
      await list();
      expect(turned).toBe(true);
    }
    console.log(
      `stats cost, ${PODS * PER_POD} containers in ${PODS} pods: ListContainerStats first call ${coldMs.toFixed(1)} ms ` +
        `(measures writable layers), then ${warmMs.toFixed(2)} ms/call; ListPodSandboxStats ${podMs.toFixed(2)} ms/call`,
    );
  });
});

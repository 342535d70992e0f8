// A List* label selector is read once per request, not once per record: a 10,000-pair selector
// over 2,000 containers held berthd ~10 s (every other call waited), and one of 400,000 pairs for
// more than 15 minutes. The selector here counts how often its pairs are enumerated.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listContainers } from '../../../internal/cri/server/container_list';
import { containersForStats } from '../../../internal/cri/server/container_stats_list';
import { listPodSandbox } from '../../../internal/cri/server/sandbox_list';
import { listPodSandboxStats } from '../../../internal/cri/server/sandbox_stats_list';
import type { CriService } from '../../../internal/cri/server/service';
import type { MetadataDB } from '../../../internal/metadata/db';
import { addReadySandbox, addRunningContainer, hexId, openStatsService } from './stats_service';

const PODS = 20;
const PER_POD = 10;

describe('a label selector of many pairs', () => {
  let dir: string;
  let db: MetadataDB;
  let svc: CriService;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'berth-label-selector-'));
    ({ db, svc } = openStatsService(dir));
    for (let p = 0; p < PODS; p++) {
      const podId = addReadySandbox(svc, p, dir, '');
      for (let c = 0; c < PER_POD; c++) addRunningContainer(svc, hexId('c', p * PER_POD + c), p, c, podId, dir, '');
    }
  });
  afterAll(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** 10,000 pairs no record carries, counting each enumeration of them. */
  function countingSelector(): { selector: Record<string, string>; enumerations: () => number } {
    const pairs: Record<string, string> = {};
    for (let i = 0; i < 10_000; i++) pairs[`key-${i}`] = `value-${i}`;
    let count = 0;
    const selector = new Proxy(pairs, {
      ownKeys(target) {
        count++;
        return Reflect.ownKeys(target);
      },
    });
    return { selector, enumerations: () => count };
  }

  it.each([
    ['ListContainers', (s: Record<string, string>) => listContainers(svc, { filter: { id: '', state: null, pod_sandbox_id: '', label_selector: s } }).then((r) => r.containers)],
    ['ListContainers in one pod', (s: Record<string, string>) => listContainers(svc, { filter: { id: '', state: null, pod_sandbox_id: hexId('a', 0), label_selector: s } }).then((r) => r.containers)],
    ['ListPodSandbox', (s: Record<string, string>) => listPodSandbox(svc, { filter: { id: '', state: null, label_selector: s } }).then((r) => r.items)],
    ['ListContainerStats', (s: Record<string, string>) => Promise.resolve(containersForStats(svc, { id: '', pod_sandbox_id: '', label_selector: s }))],
    ['ListPodSandboxStats', (s: Record<string, string>) => listPodSandboxStats(svc, { filter: { id: '', label_selector: s } }).then((r) => r.stats)],
  ])('%s reads it once, not once per record', async (_name, list) => {
    const { selector, enumerations } = countingSelector();
    expect(await list(selector)).toEqual([]);
    expect(enumerations()).toBeLessThanOrEqual(2);
    expect(await list({})).not.toEqual([]);
  });
});

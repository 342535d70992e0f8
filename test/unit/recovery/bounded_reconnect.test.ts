// Recovery reconnects pods in parallel but a bounded number at once (RECOVERY_CONCURRENCY): on a
// full node (110 pods) berthd does not open every shim connection, log and FIFO in one burst. Each
// pod's containers reconnect after its sandbox. The shims here are fakes that answer a reconnect on
// a later turn of the event loop, so every reconnect the recovery starts at once is in flight together.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { applyFlags, defaultConfig } from '../../../internal/config';
import { silentLogger } from '../../../internal/log/logger';
import { recover, RECOVERY_CONCURRENCY } from '../../../internal/cri/server/recover';
import type { CriService } from '../../../internal/cri/server/service';
import type { Container } from '../../../internal/cri/store/container';
import type { Sandbox } from '../../../internal/cri/store/sandbox';
import type { CriTask } from '../../../internal/cri/tasks/types';

const PODS = 40;
const CONTAINERS_PER_POD = 2;

interface Recorded {
  /** Most sandbox reconnects in flight at one time. */
  maxSandboxesInFlight: number;
  /** Task IDs in the order their reconnect started / finished. */
  started: string[];
  finished: string[];
}

const runningTask = (id: string): CriTask =>
  ({ id, pid: 1, exited: new Promise(() => undefined), exitedBeforeReconnect: false }) as unknown as CriTask;

function fakeService(dir: string): { svc: CriService; recorded: Recorded } {
  const config = applyFlags(defaultConfig(), { root: join(dir, 'root'), state: join(dir, 'state') });
  const sandboxes: Sandbox[] = [];
  const containers: Container[] = [];
  for (let p = 0; p < PODS; p++) {
    const id = `pod${p}`;
    sandboxes.push({
      id,
      name: id,
      metadata: { id, runtimeHandler: '', netnsPath: '' },
      status: { state: 'ready', pid: 1, createdAt: '1', exitStatus: 0, exitedAt: '0' },
      removing: false,
    } as unknown as Sandbox);
    for (let c = 0; c < CONTAINERS_PER_POD; c++) {
      const cid = `${id}-c${c}`;
      containers.push({
        id: cid,
        name: cid,
        metadata: { id: cid, sandboxId: id, runtimeHandler: '' },
        status: { pid: 2, createdAt: '1', startedAt: '2', finishedAt: '0', exitCode: 0, reason: '', message: '', unknown: false },
        spec: {},
        starting: false,
        removing: false,
      } as unknown as Container);
    }
  }
  const recorded: Recorded = { maxSandboxesInFlight: 0, started: [], finished: [] };
  let sandboxesInFlight = 0;
  const isSandbox = (id: string) => !id.includes('-c');
  const rt = {
    sandboxes: { list: () => sandboxes, tryGet: (id: string) => sandboxes.find((s) => s.id === id) },
    containers: { list: () => containers, tryGet: (id: string) => containers.find((c) => c.id === id) },
    tasks: {
      async reconnect(id: string): Promise<CriTask> {
        recorded.started.push(id);
        if (isSandbox(id)) recorded.maxSandboxesInFlight = Math.max(recorded.maxSandboxesInFlight, ++sandboxesInFlight);
        await new Promise((resolve) => setImmediate(resolve));
        if (isSandbox(id)) sandboxesInFlight--;
        recorded.finished.push(id);
        return runningTask(id);
      },
      bundlesOnDisk: () => [],
    },
    snapshotter: { walk: async () => undefined },
    cni: { cachedPodsExcept: () => [] },
    trash: { root: { discard: () => undefined }, state: { discard: () => undefined } },
  };
  return { svc: { config, logger: silentLogger, rt } as unknown as CriService, recorded };
}

describe('recovery reconnects', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'berth-recover-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it(`reconnects ${PODS} pods in parallel, at most ${RECOVERY_CONCURRENCY} at once, each container after its sandbox`, async () => {
    const { svc, recorded } = fakeService(dir);
    const reattached: string[] = [];
    const report = await recover(svc, (_svc, container) => void reattached.push(container.id));

    expect(report).toMatchObject({ sandboxes: PODS, containers: PODS * CONTAINERS_PER_POD, lostContainers: [], undoneSandboxes: [] });
    expect(new Set(recorded.started).size).toBe(PODS * (1 + CONTAINERS_PER_POD));
    expect(reattached).toHaveLength(PODS * CONTAINERS_PER_POD);
    expect(recorded.maxSandboxesInFlight).toBeGreaterThan(1);
    expect(recorded.maxSandboxesInFlight).toBeLessThanOrEqual(RECOVERY_CONCURRENCY);
    for (const id of recorded.started.filter((t) => t.includes('-c'))) {
      const pod = id.split('-c')[0]!;
      expect(recorded.finished.indexOf(pod)).toBeGreaterThanOrEqual(0);
      expect(recorded.finished.indexOf(pod)).toBeLessThan(recorded.started.indexOf(id));
    }
  });
});

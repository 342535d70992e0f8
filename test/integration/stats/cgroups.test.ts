// The cgroup readers on real cgroups this test makes: memory charged by a child that holds 50 MiB,
// CPU time burnt by a child, processes counted through child cgroups, limits, and a cgroup that
// vanishes (a container that exited) reading as "nothing known" instead of an error.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { hostCgroupLayout } from '../../../internal/cri/stats/cgroup_layout';
import { cgroupReaderFor } from '../../../internal/cri/stats/cgroup_reader';
import { nowNs, type CgroupSample } from '../../../internal/cri/stats/cgroup_sample';
import { cgroupV2Reader } from '../../../internal/cri/stats/cgroup_v2';
import { StatsCollector } from '../../../internal/cri/stats/collector';
import { notFound } from '../../../internal/errdefs/errors';
import { silentLogger } from '../../../internal/log/logger';
import { CgroupFixture } from './cgroup_fixture';

const MiB = 1024n * 1024n;
const read = cgroupReaderFor(hostCgroupLayout());
const sample = (path: string): CgroupSample | undefined => read(path, nowNs());

/** A node child that fills and holds `mib` MiB, then says "ready". */
const memoryHog = (mib: number): string[] => [
  process.execPath,
  '-e',
  `globalThis.held = Buffer.alloc(${mib} * 1024 * 1024, 1); console.log('ready'); setInterval(() => {}, 1e9);`,
];

/** A node child that burns `ms` of its own CPU time, says "ready", then keeps burning. */
const cpuBurner = (ms: number): string[] => [
  process.execPath,
  '-e',
  `const spent = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
   let said = false;
   const burn = () => { const stop = Date.now() + 20; while (Date.now() < stop) {} if (!said && spent() >= ${ms}) { said = true; console.log('ready'); } setImmediate(burn); };
   burn();`,
];

describe('cgroup readers (real cgroups)', () => {
  let cg: CgroupFixture;
  beforeEach(() => {
    cg = new CgroupFixture();
  });
  afterEach(async () => {
    await cg.destroy();
  });

  test('memory: working set of a child holding 50 MiB is at least 50 MiB, and within usage', async () => {
    const path = cg.create('hog');
    await cg.run(path, memoryHog(50), 'ready');
    const s = sample(path)!;
    expect(s.memory).toBeDefined();
    const m = s.memory!;
    expect(m.workingSetBytes).toBeGreaterThanOrEqual(50n * MiB);
    expect(m.usageBytes).toBeGreaterThanOrEqual(m.workingSetBytes);
    expect(m.rssBytes).toBeGreaterThanOrEqual(50n * MiB);
    expect(m.pageFaults).toBeGreaterThan(0n);
    expect(m.limitBytes).toBeUndefined(); // no limit set: no available_bytes either
    expect(s.processCount).toBe(1);
  });

  test('memory limit: the limit is reported, and the parent counts its child cgroup', async () => {
    const parent = cg.create();
    const child = cg.create('hog');
    cg.write(parent, 'memory', hostCgroupLayout().version === 2 ? 'memory.max' : 'memory.limit_in_bytes', String(300n * MiB));
    await cg.run(child, memoryHog(50), 'ready');
    const p = sample(parent)!;
    expect(p.memory!.limitBytes).toBe(300n * MiB);
    expect(p.memory!.workingSetBytes).toBeGreaterThanOrEqual(50n * MiB);
    expect(p.processCount).toBe(1);
  });

  test('cpu: usage covers the CPU time a child burnt; the rate between two samples is positive', async () => {
    const path = cg.create('burn');
    await cg.run(path, cpuBurner(300), 'ready');
    const collector = new StatsCollector({
      reader: read,
      snapshotUsage: async (key) => {
        throw notFound(`snapshot ${key}`);
      },
      snapshotMountpoint: '/x',
      logger: silentLogger,
    });
    // The child's own getrusage() and the cgroup's counter account differently (ticks vs ns): wait
    // until the cgroup itself shows 300 ms, then the collector must report at least that.
    let seen = sample(path)!.cpuUsageNs!;
    while (seen < 300_000_000n) {
      await new Promise((r) => setTimeout(r, 20));
      seen = sample(path)!.cpuUsageNs!;
    }
    const first = await collector.container({ id: 'c1', cgroupPath: path, snapshotKey: 'c1' });
    expect(BigInt(String(first.cpu!.usage_core_nano_seconds!.value))).toBeGreaterThanOrEqual(seen);
    expect(first.cpu!.usage_nano_cores!.value).toBe('0'); // nothing to compare with yet
    // Sample again once the child has burnt more CPU (it never stops).
    const before = sample(path)!.cpuUsageNs!;
    while (sample(path)!.cpuUsageNs! < before + 50_000_000n) await new Promise((r) => setTimeout(r, 20));
    const second = await collector.container({ id: 'c1', cgroupPath: path, snapshotKey: 'c1' });
    expect(BigInt(String(second.cpu!.usage_nano_cores!.value))).toBeGreaterThan(0n);
    expect(second.writable_layer).toBeUndefined(); // snapshot not found: left out
  });

  test('processes: counted across child cgroups, once each', async () => {
    const top = cg.create();
    const a = cg.create('a');
    const b = cg.create('a/b');
    await cg.sleep(top);
    await cg.sleep(a);
    await cg.sleep(b);
    expect(sample(top)!.processCount).toBe(3);
    expect(sample(b)!.processCount).toBe(1);
  });

  test('a vanished cgroup reads as unknown, never as an error', async () => {
    const path = cg.create('gone');
    await cg.sleep(path);
    expect(sample(path)).toBeDefined();
    await cg.destroy();
    expect(sample(path)).toBeUndefined();
    expect(sample('/berth-test-never-made/x')).toBeUndefined();
  });
});

/** A cgroup2 mount on this host: /sys/fs/cgroup itself (v2) or the hybrid /sys/fs/cgroup/unified. */
function unifiedMount(): string | undefined {
  for (const line of readFileSync('/proc/self/mountinfo', 'utf8').split('\n')) {
    const [before, after] = line.split(' - ');
    if (after?.startsWith('cgroup2 ')) return before!.split(' ')[4];
  }
  return undefined;
}

describe('cgroup v2 reader (real unified hierarchy)', () => {
  const mount = unifiedMount();
  const maybe = mount === undefined ? test.skip : test;
  let cg: CgroupFixture;
  beforeEach(() => {
    cg = new CgroupFixture(() => [mount!]);
  });
  afterEach(async () => {
    await cg.destroy();
  });

  maybe('cpu from cpu.stat usage_usec, processes from cgroup.procs; memory only with its controller', async () => {
    const top = cg.create();
    const leaf = cg.create('burn');
    await cg.run(leaf, cpuBurner(200), 'ready');
    await cg.sleep(top);
    // Wait for the cgroup's own counter (the child's getrusage() may run ahead of it).
    const leafCpu = () => cgroupV2Reader(mount!)(leaf, nowNs())!.cpuUsageNs!;
    let seen = leafCpu();
    while (seen < 200_000_000n) {
      await new Promise((r) => setTimeout(r, 20));
      seen = leafCpu();
    }
    const s = cgroupV2Reader(mount!)(top, nowNs())!;
    expect(s.cpuUsageNs).toBeGreaterThanOrEqual(seen); // the child cgroup's time counts
    expect(s.processCount).toBe(2);
    const hasMemory = readFileSync(join(mount!, 'cgroup.controllers'), 'utf8').includes('memory');
    if (!hasMemory) expect(s.memory).toBeUndefined();
    else expect(s.memory!.usageBytes).toBeGreaterThan(0n);
    await cg.destroy();
    expect(cgroupV2Reader(mount!)(top, nowNs())).toBeUndefined();
  });
});

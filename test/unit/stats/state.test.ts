// The state stats keep between calls: the previous CPU point per ID (usage_nano_cores) and the
// writable-layer figures (served from cache, refreshed in the background once old, one measurement
// at a time, gone snapshots remembered as gone, removed IDs forgotten).
import { CpuRateTracker } from '../../../internal/cri/stats/cpu_rate';
import { WritableLayerCache } from '../../../internal/cri/stats/writable_layer';
import { notFound } from '../../../internal/errdefs/errors';
import type { Usage } from '../../../internal/snapshots/types';

describe('CpuRateTracker', () => {
  test('first point is 0; then used CPU over elapsed wall time, in nanocores', () => {
    const t = new CpuRateTracker();
    expect(t.nanoCores('c', { usageNs: 1_000_000_000n, timestamp: 10_000_000_000n })).toBe(0n);
    // 0.5 s of CPU over 2 s: a quarter of a core.
    expect(t.nanoCores('c', { usageNs: 1_500_000_000n, timestamp: 12_000_000_000n })).toBe(250_000_000n);
    // Two cores busy for 1 s.
    expect(t.nanoCores('c', { usageNs: 3_500_000_000n, timestamp: 13_000_000_000n })).toBe(2_000_000_000n);
    // An older sample (a concurrent caller) changes nothing.
    expect(t.nanoCores('c', { usageNs: 3_600_000_000n, timestamp: 12_500_000_000n })).toBe(0n);
    // A counter that went backwards (new cgroup) starts over.
    expect(t.nanoCores('c', { usageNs: 1n, timestamp: 14_000_000_000n })).toBe(0n);
    expect(t.nanoCores('c', { usageNs: 100_000_001n, timestamp: 15_000_000_000n })).toBe(100_000_000n);
  });

  test('retain forgets removed IDs', () => {
    const t = new CpuRateTracker();
    t.nanoCores('a', { usageNs: 1n, timestamp: 1n });
    t.nanoCores('b', { usageNs: 1n, timestamp: 1n });
    t.retain(new Set(['a']));
    expect(t.size).toBe(1);
  });
});

describe('WritableLayerCache', () => {
  let clock = 0;
  let calls: string[] = [];
  let sizes: Record<string, number> = {};
  let gate: Promise<void> = Promise.resolve();
  const measure = async (key: string): Promise<Usage> => {
    calls.push(key);
    await gate;
    if (!(key in sizes)) throw notFound(`snapshot ${key} not found`);
    return { size: sizes[key]!, inodes: 3 };
  };
  beforeEach(() => {
    clock = 1000;
    calls = [];
    sizes = { a: 4096 };
    gate = Promise.resolve();
  });

  test('a fresh figure is served from cache; an old one is served while it is measured again', async () => {
    const cache = new WritableLayerCache(measure, { maxAgeMs: 5000, now: () => clock });
    expect(await cache.get('a')).toEqual({ timestamp: 1000n * 1_000_000n, usedBytes: 4096n, inodesUsed: 3n });
    sizes.a = 8192;
    clock += 4000;
    expect((await cache.get('a'))!.usedBytes).toBe(4096n);
    expect(calls).toEqual(['a']);
    clock += 2000; // now old: the stale figure comes back at once, a refresh starts
    expect((await cache.get('a'))!.usedBytes).toBe(4096n);
    expect(calls).toEqual(['a', 'a']);
    await new Promise((r) => setImmediate(r));
    expect((await cache.get('a'))!.usedBytes).toBe(8192n);
  });

  test('concurrent first calls share one measurement', async () => {
    let open!: () => void;
    gate = new Promise((r) => (open = r));
    const cache = new WritableLayerCache(measure, { now: () => clock });
    const both = Promise.all([cache.get('a'), cache.get('a')]);
    open();
    const [x, y] = await both;
    expect(x).toEqual(y);
    expect(calls).toEqual(['a']);
  });

  test('a gone snapshot is undefined; a failed measurement is an error the next call retries', async () => {
    const cache = new WritableLayerCache(measure, { now: () => clock });
    expect(await cache.get('gone')).toBeUndefined();
    const failing = new WritableLayerCache(async () => Promise.reject(new Error('disk on fire')), { now: () => clock });
    await expect(failing.get('a')).rejects.toThrow('disk on fire');
    expect(failing.size).toBe(0);
  });

  test('retain forgets removed snapshots', async () => {
    const cache = new WritableLayerCache(measure, { now: () => clock });
    await cache.get('a');
    cache.retain(new Set());
    expect(cache.size).toBe(0);
  });
});

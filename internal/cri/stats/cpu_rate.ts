// usage_nano_cores, as containerd computes it: the CPU time used since the previous sample of the
// same cgroup divided by the wall time between the two. The first sample of an ID answers 0.
export interface CpuPoint {
  usageNs: bigint;
  timestamp: bigint;
}

export class CpuRateTracker {
  private readonly previous = new Map<string, CpuPoint>();

  /** Records `point` for `key` and returns the rate since the last point, in nanocores. */
  nanoCores(key: string, point: CpuPoint): bigint {
    const before = this.previous.get(key);
    if (before !== undefined && point.timestamp <= before.timestamp) return 0n; // an older or same-instant sample
    this.previous.set(key, point);
    if (before === undefined) return 0n;
    const used = point.usageNs - before.usageNs;
    if (used < 0n) return 0n; // a new cgroup under the same ID: start over
    return (used * 1_000_000_000n) / (point.timestamp - before.timestamp);
  }

  /** Drops the points of keys not in `live` (containers and pods since removed). */
  retain(live: ReadonlySet<string>): void {
    for (const key of this.previous.keys()) if (!live.has(key)) this.previous.delete(key);
  }

  get size(): number {
    return this.previous.size;
  }
}

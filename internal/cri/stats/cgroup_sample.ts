// One reading of a cgroup, independent of the cgroup version. Each part is absent when it could not
// be read (the cgroup vanished, or the controller is not mounted), so callers report what is known.
// Counters are bigint: CPU nanoseconds pass 2^53 after ~104 core-days, and v1's "no limit" is ~2^63.

export interface MemorySample {
  usageBytes: bigint;
  /** usage minus inactive file cache (never below 0): what the kubelet evicts on. */
  workingSetBytes: bigint;
  /** v1 total_rss, v2 anon. */
  rssBytes: bigint;
  pageFaults: bigint;
  majorPageFaults: bigint;
  /** The cgroup's own memory limit; absent when unlimited. */
  limitBytes?: bigint;
}

export interface CgroupSample {
  /** Nanoseconds since the epoch, taken just before the files were read. */
  timestamp: bigint;
  /** Total CPU time of every task in the cgroup and below, in nanoseconds. */
  cpuUsageNs?: bigint;
  memory?: MemorySample;
  /** Processes in the cgroup and below. */
  processCount?: number;
}

export interface ReadOptions {
  /**
   * Count the processes (default true). That walks the cgroup and every cgroup below it (a list of
   * each directory and its cgroup.procs), so a pod-level reading, which reports no process count of
   * its own and sits above all the pod's containers, leaves it out.
   */
  countProcesses?: boolean;
}

/** What a cgroup reader implements, for one cgroup version. */
export type CgroupReader = (cgroupPath: string, timestamp: bigint, opts?: ReadOptions) => CgroupSample | undefined;

/** Wall-clock nanoseconds (CRI timestamps are int64 ns since the epoch). */
export function nowNs(): bigint {
  return BigInt(Date.now()) * 1_000_000n;
}

/** The kernel reports "no limit" as a page-rounded near-2^63 value; anything past 2^62 is that. */
export const UNLIMITED_THRESHOLD = 1n << 62n;

/** usage - inactive_file, floored at 0 (inactive_file can exceed usage transiently). */
export function workingSet(usage: bigint, inactiveFile: bigint | undefined): bigint {
  if (inactiveFile === undefined) return usage;
  return inactiveFile < usage ? usage - inactiveFile : 0n;
}

function addOptional(a: bigint | undefined, b: bigint | undefined): bigint | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return a + b;
}

/**
 * The sum of several cgroups' samples (a pod with no cgroup parent of its own). No limit: the parts'
 * limits say nothing about the whole. Undefined when none of the cgroups could be read.
 */
export function sumSamples(samples: readonly CgroupSample[], timestamp: bigint): CgroupSample | undefined {
  if (samples.length === 0) return undefined;
  const total: CgroupSample = { timestamp };
  for (const s of samples) {
    total.cpuUsageNs = addOptional(total.cpuUsageNs, s.cpuUsageNs);
    if (s.processCount !== undefined) total.processCount = (total.processCount ?? 0) + s.processCount;
    if (s.memory) {
      const m = (total.memory ??= { usageBytes: 0n, workingSetBytes: 0n, rssBytes: 0n, pageFaults: 0n, majorPageFaults: 0n });
      m.usageBytes += s.memory.usageBytes;
      m.workingSetBytes += s.memory.workingSetBytes;
      m.rssBytes += s.memory.rssBytes;
      m.pageFaults += s.memory.pageFaults;
      m.majorPageFaults += s.memory.majorPageFaults;
    }
  }
  return total;
}

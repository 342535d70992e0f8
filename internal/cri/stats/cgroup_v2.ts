// cgroup v2: one hierarchy; every counter read here (cpu.stat, memory.current, memory.stat) already
// includes the cgroups below, so a pod's parent cgroup counts its children.
import { join } from 'node:path';
import { countProcesses, readCgroupFile, readCgroupUint, readKeyedValues } from './cgroup_files';
import { workingSet, type CgroupReader, type CgroupSample, type MemorySample } from './cgroup_sample';

/** The memory.stat lines used. */
const MEMORY_STAT_KEYS: ReadonlySet<string> = new Set(['inactive_file', 'anon', 'pgfault', 'pgmajfault']);

function readMemoryLimit(dir: string): bigint | undefined {
  const text = readCgroupFile(join(dir, 'memory.max'))?.trim();
  if (text === undefined || text === 'max' || !/^[0-9]+$/.test(text)) return undefined;
  return BigInt(text);
}

function readMemory(dir: string): MemorySample | undefined {
  const usage = readCgroupUint(join(dir, 'memory.current'));
  const stat = readKeyedValues(join(dir, 'memory.stat'), MEMORY_STAT_KEYS);
  if (usage === undefined || stat === undefined) return undefined;
  const limit = readMemoryLimit(dir);
  return {
    usageBytes: usage,
    workingSetBytes: workingSet(usage, stat.get('inactive_file')),
    rssBytes: stat.get('anon') ?? 0n,
    pageFaults: stat.get('pgfault') ?? 0n,
    majorPageFaults: stat.get('pgmajfault') ?? 0n,
    ...(limit !== undefined ? { limitBytes: limit } : {}),
  };
}

/** A reader over the unified hierarchy mounted at `root`. */
export function cgroupV2Reader(root: string): CgroupReader {
  return (cgroupPath, timestamp, opts) => {
    const dir = join(root, cgroupPath);
    const sample: CgroupSample = { timestamp };
    const usec = readKeyedValues(join(dir, 'cpu.stat'))?.get('usage_usec');
    if (usec !== undefined) sample.cpuUsageNs = usec * 1000n;
    const memory = readMemory(dir);
    if (memory) sample.memory = memory;
    const processes = opts?.countProcesses === false ? undefined : countProcesses(dir);
    if (processes !== undefined) sample.processCount = processes;
    const found = sample.cpuUsageNs !== undefined || sample.memory !== undefined || sample.processCount !== undefined;
    return found ? sample : undefined;
  };
}

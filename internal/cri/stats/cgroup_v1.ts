// cgroup v1: each controller is its own hierarchy, and a container's cgroup is the same path in
// each (runc with cgroupfs: <mountpoint>/<cgroupsPath>). Hierarchical totals (total_*) are used so a
// pod's parent cgroup counts its children.
import { join } from 'node:path';
import { countProcesses, readCgroupUint, readKeyedValues } from './cgroup_files';
import { UNLIMITED_THRESHOLD, workingSet, type CgroupReader, type CgroupSample, type MemorySample } from './cgroup_sample';

/** Processes are counted in the first of these hierarchies that is mounted. */
const PROCESS_CONTROLLERS = ['pids', 'memory', 'cpuacct', 'cpu'];

/** The memory.stat lines used. */
const MEMORY_STAT_KEYS: ReadonlySet<string> = new Set(['total_inactive_file', 'total_rss', 'total_pgfault', 'total_pgmajfault']);

function readMemory(dir: string): MemorySample | undefined {
  const usage = readCgroupUint(join(dir, 'memory.usage_in_bytes'));
  const stat = readKeyedValues(join(dir, 'memory.stat'), MEMORY_STAT_KEYS);
  if (usage === undefined || stat === undefined) return undefined;
  const limit = readCgroupUint(join(dir, 'memory.limit_in_bytes'));
  return {
    usageBytes: usage,
    workingSetBytes: workingSet(usage, stat.get('total_inactive_file')),
    rssBytes: stat.get('total_rss') ?? 0n,
    pageFaults: stat.get('total_pgfault') ?? 0n,
    majorPageFaults: stat.get('total_pgmajfault') ?? 0n,
    ...(limit !== undefined && limit < UNLIMITED_THRESHOLD ? { limitBytes: limit } : {}),
  };
}

/** A reader over the v1 hierarchies of `controllers` (name -> mountpoint). */
export function cgroupV1Reader(controllers: ReadonlyMap<string, string>): CgroupReader {
  const dirOf = (controller: string, cgroupPath: string): string | undefined => {
    const mountpoint = controllers.get(controller);
    return mountpoint === undefined ? undefined : join(mountpoint, cgroupPath);
  };
  const processController = PROCESS_CONTROLLERS.find((c) => controllers.has(c));
  return (cgroupPath, timestamp, opts) => {
    const sample: CgroupSample = { timestamp };
    const cpuDir = dirOf('cpuacct', cgroupPath);
    if (cpuDir !== undefined) {
      const usage = readCgroupUint(join(cpuDir, 'cpuacct.usage'));
      if (usage !== undefined) sample.cpuUsageNs = usage;
    }
    const memDir = dirOf('memory', cgroupPath);
    const memory = memDir === undefined ? undefined : readMemory(memDir);
    if (memory) sample.memory = memory;
    const procDir = processController === undefined ? undefined : dirOf(processController, cgroupPath);
    const processes = procDir === undefined || opts?.countProcesses === false ? undefined : countProcesses(procDir);
    if (processes !== undefined) sample.processCount = processes;
    const found = sample.cpuUsageNs !== undefined || sample.memory !== undefined || sample.processCount !== undefined;
    return found ? sample : undefined;
  };
}

// Samples as CRI messages. uint64 and int64 travel as decimal strings (proto longs: String).
import type { CpuUsage } from '../../api/gen/runtime/v1/CpuUsage';
import type { FilesystemUsage } from '../../api/gen/runtime/v1/FilesystemUsage';
import type { MemoryUsage } from '../../api/gen/runtime/v1/MemoryUsage';
import type { NetworkInterfaceUsage } from '../../api/gen/runtime/v1/NetworkInterfaceUsage';
import type { NetworkUsage } from '../../api/gen/runtime/v1/NetworkUsage';
import type { ProcessUsage } from '../../api/gen/runtime/v1/ProcessUsage';
import type { UInt64Value } from '../../api/gen/runtime/v1/UInt64Value';
import type { MemorySample } from './cgroup_sample';
import type { InterfaceCounters } from './net_dev';
import type { LayerUsage } from './writable_layer';

/** The interface kubelet treats as the pod's own (CNI's default ifname). */
export const DEFAULT_INTERFACE = 'eth0';

const u64 = (v: bigint | number): UInt64Value => ({ value: String(v) });

export function toCpuUsage(timestamp: bigint, usageNs: bigint, nanoCores: bigint): CpuUsage {
  return { timestamp: String(timestamp), usage_core_nano_seconds: u64(usageNs), usage_nano_cores: u64(nanoCores) };
}

/** available_bytes is the limit less the working set, and 0 when the cgroup has no limit, as containerd sends it. */
export function toMemoryUsage(timestamp: bigint, m: MemorySample): MemoryUsage {
  const limit = m.limitBytes ?? 0n;
  return {
    timestamp: String(timestamp),
    working_set_bytes: u64(m.workingSetBytes),
    available_bytes: u64(limit > m.workingSetBytes ? limit - m.workingSetBytes : 0n),
    usage_bytes: u64(m.usageBytes),
    rss_bytes: u64(m.rssBytes),
    page_faults: u64(m.pageFaults),
    major_page_faults: u64(m.majorPageFaults),
  };
}

export function toProcessUsage(timestamp: bigint, count: number): ProcessUsage {
  return { timestamp: String(timestamp), process_count: u64(count) };
}

export function toFilesystemUsage(mountpoint: string, layer: LayerUsage): FilesystemUsage {
  return {
    timestamp: String(layer.timestamp),
    fs_id: { mountpoint },
    used_bytes: u64(layer.usedBytes),
    inodes_used: u64(layer.inodesUsed),
  };
}

function toInterfaceUsage(c: InterfaceCounters): NetworkInterfaceUsage {
  return { name: c.name, rx_bytes: u64(c.rxBytes), rx_errors: u64(c.rxErrors), tx_bytes: u64(c.txBytes), tx_errors: u64(c.txErrors) };
}

/** eth0 as the default interface (when there is one); every interface but loopback in `interfaces`. */
export function toNetworkUsage(timestamp: bigint, counters: readonly InterfaceCounters[]): NetworkUsage {
  const usage: NetworkUsage = {
    timestamp: String(timestamp),
    interfaces: counters.filter((c) => c.name !== 'lo').map(toInterfaceUsage),
  };
  const main = counters.find((c) => c.name === DEFAULT_INTERFACE);
  if (main) usage.default_interface = toInterfaceUsage(main);
  return usage;
}

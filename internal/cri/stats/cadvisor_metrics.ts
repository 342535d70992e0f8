// The CRI metrics (ListMetricDescriptors, ListPodSandboxMetrics): cgroup and netns readings under
// cAdvisor's names, with CRI-O's label keys (id, name, image, then the metric's own), so kubelet's
// PodAndContainerStatsFromCRI serves them on /metrics/cadvisor where dashboards expect cAdvisor's.
// Values are the same readings the stats RPCs answer from; the CRI carries them as uint64, so the
// *_seconds_total counters are whole seconds, as CRI-O's.
import type { Metric } from '../../api/gen/runtime/v1/Metric';
import type { MetricDescriptor } from '../../api/gen/runtime/v1/MetricDescriptor';
import type { CgroupSample } from './cgroup_sample';
import type { InterfaceCounters } from './net_dev';

type Kind = 'COUNTER' | 'GAUGE';

interface Definition {
  name: string;
  help: string;
  kind: Kind;
  /** Label keys after the base ones (id, name, image). */
  extraLabels: readonly string[];
}

const BASE_LABELS = ['id', 'name', 'image'] as const;

const def = (name: string, kind: Kind, help: string, extraLabels: readonly string[] = []): Definition => ({ name, help, kind, extraLabels });

const CPU_USAGE = def('container_cpu_usage_seconds_total', 'COUNTER', 'Cumulative cpu time consumed in seconds.', ['cpu']);
const MEMORY_USAGE = def('container_memory_usage_bytes', 'GAUGE', 'Current memory usage in bytes, including all memory regardless of when it was accessed');
const MEMORY_WORKING_SET = def('container_memory_working_set_bytes', 'GAUGE', 'Current working set in bytes.');
const MEMORY_RSS = def('container_memory_rss', 'GAUGE', 'Size of RSS in bytes.');
const MEMORY_FAILURES = def('container_memory_failures_total', 'COUNTER', 'Cumulative count of memory allocation failures.', ['failure_type', 'scope']);
const MEMORY_LIMIT = def('container_spec_memory_limit_bytes', 'GAUGE', 'Memory limit for the container in bytes.');
const PROCESSES = def('container_processes', 'GAUGE', 'Number of processes running inside the container.');
const NET_RX_BYTES = def('container_network_receive_bytes_total', 'COUNTER', 'Cumulative count of bytes received', ['interface']);
const NET_RX_ERRORS = def('container_network_receive_errors_total', 'COUNTER', 'Cumulative count of errors encountered while receiving', ['interface']);
const NET_TX_BYTES = def('container_network_transmit_bytes_total', 'COUNTER', 'Cumulative count of bytes transmitted', ['interface']);
const NET_TX_ERRORS = def('container_network_transmit_errors_total', 'COUNTER', 'Cumulative count of errors encountered while transmitting', ['interface']);

const DEFINITIONS: readonly Definition[] = [
  CPU_USAGE,
  MEMORY_USAGE,
  MEMORY_WORKING_SET,
  MEMORY_RSS,
  MEMORY_FAILURES,
  MEMORY_LIMIT,
  PROCESSES,
  NET_RX_BYTES,
  NET_RX_ERRORS,
  NET_TX_BYTES,
  NET_TX_ERRORS,
];

/** Every metric ListPodSandboxMetrics can answer; each Metric's label_values follow these label_keys. */
export function metricDescriptors(): MetricDescriptor[] {
  return DEFINITIONS.map((d) => ({ name: d.name, help: d.help, label_keys: [...BASE_LABELS, ...d.extraLabels] }));
}

/** The base label values: id, name, image. */
export type BaseLabels = readonly [id: string, name: string, image: string];

function metric(d: Definition, timestamp: bigint, base: BaseLabels, value: bigint, extra: readonly string[] = []): Metric {
  return { name: d.name, timestamp: String(timestamp), metric_type: d.kind, label_values: [...base, ...extra], value: { value: String(value) } };
}

const NS_PER_SECOND = 1_000_000_000n;

/** A container's metrics from its cgroup reading; only what the reading has. */
export function containerMetrics(base: BaseLabels, sample: CgroupSample): Metric[] {
  const at = sample.timestamp;
  const out: Metric[] = [];
  if (sample.cpuUsageNs !== undefined) out.push(metric(CPU_USAGE, at, base, sample.cpuUsageNs / NS_PER_SECOND, ['total']));
  const m = sample.memory;
  if (m) {
    out.push(
      metric(MEMORY_USAGE, at, base, m.usageBytes),
      metric(MEMORY_WORKING_SET, at, base, m.workingSetBytes),
      metric(MEMORY_RSS, at, base, m.rssBytes),
      // cAdvisor's four series: the cgroup's own faults and its hierarchy's (the same figure here).
      ...['container', 'hierarchy'].flatMap((scope) => [
        metric(MEMORY_FAILURES, at, base, m.pageFaults, ['pgfault', scope]),
        metric(MEMORY_FAILURES, at, base, m.majorPageFaults, ['pgmajfault', scope]),
      ]),
      // cAdvisor reports 0 for no limit.
      metric(MEMORY_LIMIT, at, base, m.limitBytes ?? 0n),
    );
  }
  if (sample.processCount !== undefined) out.push(metric(PROCESSES, at, base, BigInt(sample.processCount)));
  return out;
}

/** A pod's network metrics, one series per interface but loopback (cAdvisor ignores lo). */
export function podNetworkMetrics(base: BaseLabels, timestamp: bigint, counters: readonly InterfaceCounters[]): Metric[] {
  return counters
    .filter((c) => c.name !== 'lo')
    .flatMap((c) => [
      metric(NET_RX_BYTES, timestamp, base, c.rxBytes, [c.name]),
      metric(NET_RX_ERRORS, timestamp, base, c.rxErrors, [c.name]),
      metric(NET_TX_BYTES, timestamp, base, c.txBytes, [c.name]),
      metric(NET_TX_ERRORS, timestamp, base, c.txErrors, [c.name]),
    ]);
}

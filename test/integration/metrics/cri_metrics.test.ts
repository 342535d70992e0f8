// CRI ListMetricDescriptors and ListPodSandboxMetrics (what kubelet's PodAndContainerStatsFromCRI
// serves as /metrics/cadvisor) against the stats RPCs for the same containers: each metric is read
// between two stats readings, so a counter must lie between them and a steady gauge next to them,
// whatever the timing. Labels must line up with the descriptors' keys, as kubelet requires.
import type { Metric__Output } from '../../../internal/api/gen/runtime/v1/Metric';
import type { PodSandboxMetrics__Output } from '../../../internal/api/gen/runtime/v1/PodSandboxMetrics';
import { BUSYBOX_IMAGE } from '../../harness/images';
import { createBerthEnv, SLEEPER, type BerthEnv } from '../recovery/berth_env';

jest.setTimeout(180_000);

const MiB = 1024n * 1024n;
const NS_PER_SECOND = 1_000_000_000n;
const n = (v: { value: string } | null | undefined): bigint => BigInt(v?.value ?? '0');

function metricOf(metrics: readonly Metric__Output[], name: string, extraLabels: string[] = []): Metric__Output {
  const hits = metrics.filter((m) => m.name === name && extraLabels.every((l, i) => m.label_values[3 + i] === l));
  if (hits.length !== 1) throw new Error(`${name} ${JSON.stringify(extraLabels)}: ${hits.length} metrics in ${JSON.stringify(metrics.map((m) => m.name))}`);
  return hits[0]!;
}

describe('CRI pod sandbox metrics', () => {
  let env: BerthEnv;
  let podId: string;
  let podName: string;
  let podUid: string;
  let busy: string;
  let holder: string;
  let idle: string;

  const podMetrics = async (): Promise<PodSandboxMetrics__Output> => {
    const { pod_metrics } = await env.client.runtime.ListPodSandboxMetrics({});
    const mine = pod_metrics.find((p) => p.pod_sandbox_id === podId);
    if (!mine) throw new Error(`pod ${podId} not in ListPodSandboxMetrics: ${JSON.stringify(pod_metrics.map((p) => p.pod_sandbox_id))}`);
    return mine;
  };
  const containerMetricsOf = (pod: PodSandboxMetrics__Output, id: string) => pod.container_metrics.find((c) => c.container_id === id)?.metrics ?? [];
  const containerStats = async (id: string) => (await env.client.runtime.ContainerStats({ container_id: id })).stats!;

  beforeAll(async () => {
    env = await createBerthEnv();
    await env.start();
    const { podId: id, config } = await env.runPod('cri-metrics');
    podId = id;
    podName = config.metadata!.name!;
    podUid = config.metadata!.uid!;
    busy = await env.create(podId, config, 'busy', ['sh', '-c', 'while :; do :; done']);
    // /dev/shm pages are charged to the writer and never inactive_file: a steady working set.
    holder = await env.create(podId, config, 'holder', ['sh', '-c', 'dd if=/dev/zero of=/dev/shm/held bs=1M count=24 2>/dev/null; exec sleep 3600']);
    idle = await env.create(podId, config, 'idle', SLEEPER);
    await env.client.runtime.StartContainer({ container_id: busy });
    await env.client.runtime.StartContainer({ container_id: holder });
    // Guards against hanging, not timing assertions: at least 2 s of CPU, and the 24 MiB written.
    const giveUp = Date.now() + 60_000;
    while (n((await containerStats(busy)).cpu?.usage_core_nano_seconds) < 2n * NS_PER_SECOND && Date.now() < giveUp) await new Promise((r) => setTimeout(r, 200));
    while (n((await containerStats(holder)).memory?.working_set_bytes) < 24n * MiB && Date.now() < giveUp) await new Promise((r) => setTimeout(r, 200));
  });

  afterAll(async () => {
    await env?.close();
  });

  it('describes cAdvisor-named metrics with id, name and image labels, and answers only described metrics', async () => {
    const { descriptors } = await env.client.runtime.ListMetricDescriptors({});
    const byName = new Map(descriptors.map((d) => [d.name, d]));
    expect(byName.get('container_cpu_usage_seconds_total')?.label_keys).toEqual(['id', 'name', 'image', 'cpu']);
    expect(byName.get('container_memory_working_set_bytes')?.label_keys).toEqual(['id', 'name', 'image']);
    expect(byName.get('container_network_receive_bytes_total')?.label_keys).toEqual(['id', 'name', 'image', 'interface']);
    expect(byName.get('container_network_transmit_bytes_total')?.label_keys).toEqual(['id', 'name', 'image', 'interface']);

    const pod = await podMetrics();
    const all = [...pod.metrics, ...pod.container_metrics.flatMap((c) => c.metrics)];
    expect(all.length).toBeGreaterThan(0);
    for (const m of all) {
      const d = byName.get(m.name);
      expect(d).toBeDefined();
      // kubelet's NewConstMetric refuses a metric whose values do not match the keys.
      expect(m.label_values).toHaveLength(d!.label_keys.length);
    }
  });

  it('lists running containers only, labelled with their ID, full name and image', async () => {
    const pod = await podMetrics();
    expect(pod.container_metrics.map((c) => c.container_id).sort()).toEqual([busy, holder].sort());
    expect(containerMetricsOf(pod, idle)).toEqual([]);
    const ws = metricOf(containerMetricsOf(pod, holder), 'container_memory_working_set_bytes');
    expect(ws.label_values).toEqual([holder, `holder_${podName}_berth-test_${podUid}_0`, BUSYBOX_IMAGE]);
    expect(ws.metric_type).toBe('GAUGE');
    expect(BigInt(ws.timestamp)).toBeGreaterThan(0n);
    // Network counters are the pod's, labelled as CRI-O labels them.
    const rx = metricOf(pod.metrics, 'container_network_receive_bytes_total', ['eth0']);
    expect(rx.label_values).toEqual([podId, 'POD', '', 'eth0']);
    expect(rx.metric_type).toBe('COUNTER');
    expect(pod.metrics.some((m) => m.label_values[3] === 'lo')).toBe(false);
  });

  it('agrees with ContainerStats on CPU and memory', async () => {
    const before = [await containerStats(busy), await containerStats(holder)];
    const pod = await podMetrics();
    const after = [await containerStats(busy), await containerStats(holder)];

    // CPU: a counter, in whole seconds (the CRI carries uint64), between the two readings.
    const cpu = metricOf(containerMetricsOf(pod, busy), 'container_cpu_usage_seconds_total', ['total']);
    expect(cpu.metric_type).toBe('COUNTER');
    const seconds = n(cpu.value);
    expect(seconds).toBeGreaterThanOrEqual(n(before[0]!.cpu?.usage_core_nano_seconds) / NS_PER_SECOND);
    expect(seconds).toBeLessThanOrEqual(n(after[0]!.cpu?.usage_core_nano_seconds) / NS_PER_SECOND);
    expect(seconds).toBeGreaterThanOrEqual(2n);

    // Memory of the holder: steady, so within 1 MiB of both readings.
    const near = (v: bigint, a: bigint, b: bigint) => {
      const lo = (a < b ? a : b) - MiB;
      const hi = (a > b ? a : b) + MiB;
      expect(v).toBeGreaterThanOrEqual(lo);
      expect(v).toBeLessThanOrEqual(hi);
    };
    const holderMetrics = containerMetricsOf(pod, holder);
    const ws = n(metricOf(holderMetrics, 'container_memory_working_set_bytes').value);
    expect(ws).toBeGreaterThanOrEqual(24n * MiB);
    near(ws, n(before[1]!.memory?.working_set_bytes), n(after[1]!.memory?.working_set_bytes));
    near(n(metricOf(holderMetrics, 'container_memory_usage_bytes').value), n(before[1]!.memory?.usage_bytes), n(after[1]!.memory?.usage_bytes));
    near(n(metricOf(holderMetrics, 'container_memory_rss').value), n(before[1]!.memory?.rss_bytes), n(after[1]!.memory?.rss_bytes));
    expect(n(metricOf(holderMetrics, 'container_processes').value)).toBeGreaterThanOrEqual(1n);
  });

  it("agrees with PodSandboxStats on the pod's network counters", async () => {
    // Some traffic on eth0 first, so the comparison is not of zeros.
    const gateway = `$(ip route | awk '/default/ {print $3}')`;
    await env.client.runtime.ExecSync({ container_id: holder, cmd: ['sh', '-c', `wget -q -T 2 -O /dev/null http://${gateway}:1/ || true`], timeout: '20' });
    const iface = async () => (await env.client.runtime.PodSandboxStats({ pod_sandbox_id: podId })).stats!.linux!.network!.default_interface!;
    const before = await iface();
    const pod = await podMetrics();
    const after = await iface();
    const rx = n(metricOf(pod.metrics, 'container_network_receive_bytes_total', ['eth0']).value);
    const tx = n(metricOf(pod.metrics, 'container_network_transmit_bytes_total', ['eth0']).value);
    expect(n(before.rx_bytes)).toBeGreaterThan(0n);
    expect(rx).toBeGreaterThanOrEqual(n(before.rx_bytes));
    expect(rx).toBeLessThanOrEqual(n(after.rx_bytes));
    expect(tx).toBeGreaterThanOrEqual(n(before.tx_bytes));
    expect(tx).toBeLessThanOrEqual(n(after.tx_bytes));
  });

  it('leaves out a pod that is not ready', async () => {
    await env.client.runtime.StopPodSandbox({ pod_sandbox_id: podId });
    const { pod_metrics } = await env.client.runtime.ListPodSandboxMetrics({});
    expect(pod_metrics.map((p) => p.pod_sandbox_id)).not.toContain(podId);
  });
});

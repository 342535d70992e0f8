// Container and pod stats of real containers through berthd: memory held in the pod's /dev/shm,
// a growing writable layer, CPU of a busy loop, pod network counters, ListContainerStats and
// ListPodSandboxStats filters. Each pod gets its own cgroup parent under the suite's, as kubelet
// gives each pod its own, so pod figures are that pod's alone.
import { status as GrpcStatus } from '@grpc/grpc-js';
import type { ContainerStats__Output } from '../../../internal/api/gen/runtime/v1/ContainerStats';
import type { PodSandboxConfig } from '../../../internal/api/gen/runtime/v1/PodSandboxConfig';
import { callError } from '../../harness/cri_client';
import { startContainerSuite, type ContainerSuite } from '../cri_containers/env';
import { closeSuiteCleanly } from '../cri_streaming/clean_host';

jest.setTimeout(180_000);

const MiB = 1024 * 1024;
const SLEEPER = ['sh', '-c', 'trap "exit 0" TERM; sleep 3600 & wait'];

/** Polls `probe` until `done` holds for its value (a guard against hanging, not a timing assertion). */
async function until<T>(what: string, probe: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 60_000): Promise<T> {
  const giveUp = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (done(value)) return value;
    if (Date.now() > giveUp) throw new Error(`${what}: never happened; last value ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

const n = (v: { value: string } | null | undefined): bigint => BigInt(v?.value ?? '0');

describe('stats of real containers and pods', () => {
  let s: ContainerSuite;
  let podId: string;
  let pod: PodSandboxConfig;
  let holder: string; // holds 50 MiB in /dev/shm
  let busy: string; // spins a CPU
  let idle: string; // created, never started

  const containerStats = async (id: string): Promise<ContainerStats__Output> =>
    (await s.client.runtime.ContainerStats({ container_id: id })).stats!;

  beforeAll(async () => {
    s = await startContainerSuite();
    const config = s.podConfig('stats', { labels: { suite: 'stats', role: 'measured' } });
    pod = { ...config, linux: { ...config.linux, cgroup_parent: `${s.cgroupParent}/stats` } };
    podId = (await s.client.runtime.RunPodSandbox({ config: pod })).pod_sandbox_id;
    // The pod's /dev/shm is a tmpfs: its pages are charged to the writer's memory cgroup and, being
    // swap-backed, are never inactive_file, so they count in the working set.
    holder = await s.create(podId, pod, 'holder', ['sh', '-c', 'dd if=/dev/zero of=/dev/shm/held bs=1M count=50 2>/dev/null; exec sleep 3600'], {
      labels: { kind: 'holder' },
    });
    busy = await s.create(podId, pod, 'busy', ['sh', '-c', 'while :; do :; done'], { labels: { kind: 'busy' } });
    idle = await s.create(podId, pod, 'idle', SLEEPER, { labels: { kind: 'idle' } });
    await s.client.runtime.StartContainer({ container_id: holder });
    await s.client.runtime.StartContainer({ container_id: busy });
  });

  afterAll(async () => {
    await closeSuiteCleanly(s);
  });

  it('counts 50 MiB held in /dev/shm in the working set of the container that wrote it', async () => {
    await until(
      'the 50 MiB file is written',
      async () => (await s.client.runtime.ExecSync({ container_id: holder, cmd: ['stat', '-c', '%s', '/dev/shm/held'], timeout: '10' })).stdout.toString().trim(),
      (size) => size === String(50 * MiB),
    );
    const stats = await containerStats(holder);
    expect(stats.attributes).toMatchObject({ id: holder, metadata: { name: 'holder', attempt: 0 }, labels: { kind: 'holder' } });
    expect(n(stats.memory?.working_set_bytes)).toBeGreaterThanOrEqual(BigInt(50 * MiB));
    expect(n(stats.memory?.usage_bytes)).toBeGreaterThanOrEqual(n(stats.memory?.working_set_bytes));
    expect(BigInt(stats.memory!.timestamp)).toBeGreaterThan(0n);
    // The busy loop holds next to nothing.
    expect(n((await containerStats(busy)).memory?.working_set_bytes)).toBeLessThan(BigInt(10 * MiB));
  });

  it('shows the writable layer grow after a 5 MiB file is written to the rootfs', async () => {
    const before = (await containerStats(holder)).writable_layer!;
    expect(before.fs_id?.mountpoint).toMatch(/overlayfs$/);
    await s.client.runtime.ExecSync({ container_id: holder, cmd: ['dd', 'if=/dev/zero', 'of=/five-mib', 'bs=1M', 'count=5'], timeout: '30' });
    // The figure is measured in the background when old (du is too slow for every poll): poll.
    const after = await until(
      'the writable layer grows by 5 MiB',
      async () => (await containerStats(holder)).writable_layer!,
      (layer) => n(layer.used_bytes) >= n(before.used_bytes) + BigInt(5 * MiB),
    );
    expect(n(after.inodes_used)).toBeGreaterThan(n(before.inodes_used));
  });

  it('shows cumulative CPU time growing while a busy loop runs, and a non-zero rate', async () => {
    const first = (await containerStats(busy)).cpu!;
    const later = await until(
      'the busy loop uses more CPU',
      async () => (await containerStats(busy)).cpu!,
      (cpu) => n(cpu.usage_core_nano_seconds) > n(first.usage_core_nano_seconds) && n(cpu.usage_nano_cores) > 0n,
    );
    expect(BigInt(later.timestamp)).toBeGreaterThan(BigInt(first.timestamp));
    // The sleeping holder hardly runs at all next to it.
    expect(n((await containerStats(holder)).cpu?.usage_core_nano_seconds)).toBeLessThan(n(later.usage_core_nano_seconds));
  });

  it('gives a created container attributes and a writable layer but no cgroup figures', async () => {
    const stats = await containerStats(idle);
    expect(stats.attributes?.id).toBe(idle);
    expect(stats.cpu).toBeNull();
    expect(stats.memory).toBeNull();
    expect(stats.writable_layer).not.toBeNull();
    expect((await callError(s.client.runtime.ContainerStats({ container_id: 'f'.repeat(64) }))).code).toBe(GrpcStatus.NOT_FOUND);
  });

  it('filters ListContainerStats by ID prefix, pod and labels', async () => {
    const ids = async (filter: Record<string, unknown> | null) =>
      (await s.client.runtime.ListContainerStats({ filter })).stats.map((st) => st.attributes!.id).sort();
    expect(await ids(null)).toEqual([holder, busy, idle].sort());
    expect(await ids({ id: busy.slice(0, 12) })).toEqual([busy]);
    expect(await ids({ pod_sandbox_id: podId })).toEqual([holder, busy, idle].sort());
    expect(await ids({ pod_sandbox_id: podId, label_selector: { kind: 'holder' } })).toEqual([holder]);
    expect(await ids({ label_selector: { kind: 'nobody' } })).toEqual([]);
    expect(await ids({ id: 'f'.repeat(64) })).toEqual([]);
  });

  it('reports pod stats: its cgroup covers its containers, and network counters move with traffic', async () => {
    // Traffic on the pod's eth0: pings to the suite's own bridge (the pod's gateway).
    const ping = await s.client.runtime.ExecSync({ container_id: holder, cmd: ['ping', '-c', '3', '-i', '0.2', '-W', '5', s.cni.gateway], timeout: '30' });
    expect(ping.exit_code).toBe(0);
    const { stats } = await s.client.runtime.PodSandboxStats({ pod_sandbox_id: podId });
    const linux = stats!.linux!;
    expect(stats!.attributes).toMatchObject({ id: podId, labels: { suite: 'stats', role: 'measured' } });
    expect(linux.network?.default_interface?.name).toBe('eth0');
    expect(n(linux.network?.default_interface?.rx_bytes)).toBeGreaterThan(0n);
    expect(n(linux.network?.default_interface?.tx_bytes)).toBeGreaterThan(0n);
    expect(linux.network!.interfaces.map((i) => i.name)).toEqual(['eth0']);
    expect(n(linux.memory?.working_set_bytes)).toBeGreaterThanOrEqual(BigInt(50 * MiB));
    expect(n(linux.cpu?.usage_core_nano_seconds)).toBeGreaterThan(0n);
    // holder's sleep and busy's sh, not the pause process, nor the created container.
    expect(n(linux.process?.process_count)).toBe(2n);
    expect(linux.containers.map((c) => c.attributes!.id).sort()).toEqual([holder, busy, idle].sort());

    const again = (await s.client.runtime.PodSandboxStats({ pod_sandbox_id: podId })).stats!.linux!;
    expect(n(again.cpu?.usage_core_nano_seconds)).toBeGreaterThanOrEqual(n(linux.cpu?.usage_core_nano_seconds));
  });

  it('lists Ready pods only, filtered by ID and labels, and refuses stats of a stopped pod', async () => {
    const other = await s.runPod('stopped', { labels: { suite: 'stats', role: 'other' } });
    await s.client.runtime.StopPodSandbox({ pod_sandbox_id: other.podId });
    const ids = async (filter: Record<string, unknown> | null) =>
      (await s.client.runtime.ListPodSandboxStats({ filter })).stats.map((st) => st.attributes!.id);
    expect(await ids(null)).toEqual([podId]);
    expect(await ids({ id: podId.slice(0, 10) })).toEqual([podId]);
    expect(await ids({ label_selector: { role: 'measured' } })).toEqual([podId]);
    expect(await ids({ label_selector: { role: 'other' } })).toEqual([]);
    const err = await callError(s.client.runtime.PodSandboxStats({ pod_sandbox_id: other.podId }));
    expect(err.code).toBe(GrpcStatus.UNAVAILABLE);
    expect(err.details).toContain(other.podId);
    await s.client.runtime.RemovePodSandbox({ pod_sandbox_id: other.podId });
  });
});

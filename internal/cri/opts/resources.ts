// Cgroup placement and limits: cgroupsPath for either runc cgroup driver, CPU/memory/hugepage
// limits from CRI resources (swap and hugepages only where their controllers are), and
// oom_score_adj with containerd's restriction.
import type { LinuxContainerResources__Output } from '../../api/gen/runtime/v1/LinuxContainerResources';
import { invalidArgument } from '../../errdefs/errors';
import type { LinuxResources, Spec } from '../../oci/spec';
import { ensureProcess } from './process';
import type { SpecHost } from './types';
import { int64 } from './values';

/** Prefix of systemd scope names runc creates for berth containers ("<slice>:berth:<id>"). */
export const SYSTEMD_SCOPE_PREFIX = 'berth';

/**
 * Where runc puts the container's cgroup. cgroupfs: `<parent>/<id>`, or `/<namespace>/<id>` with no
 * parent. systemd: runc's "slice:prefix:name" with the parent's last element as the slice (an empty
 * slice means runc's default, system.slice).
 */
export function cgroupsPath(parent: string, id: string, systemd: boolean, namespace: string): string {
  if (systemd) {
    const slice = parent.split('/').filter((p) => p !== '').pop() ?? '';
    if (slice !== '' && !slice.endsWith('.slice')) {
      throw invalidArgument(`cgroup parent ${JSON.stringify(parent)} must name a systemd slice (end in ".slice") with the systemd cgroup driver`);
    }
    return `${slice}:${SYSTEMD_SCOPE_PREFIX}:${id}`;
  }
  if (parent === '') return `/${namespace}/${id}`;
  return `${parent.replace(/\/+$/, '')}/${id}`;
}

function ensureResources(spec: Spec): LinuxResources {
  spec.linux ??= {};
  spec.linux.resources ??= {};
  return spec.linux.resources;
}

/**
 * Applies CRI resource limits; zero values mean "not set" and leave the spec alone. Swap is only
 * set where the memory controller can limit it. Hugepage limits are dropped unless the runtime
 * enables the hugetlb controller and the host has it: kubelet sends a limit-0 entry for every page
 * size, and runc fails on them where hugetlb is absent (containerd's disable_hugetlb_controller,
 * with its tolerate_missing_hugetlb_controller default).
 */
export function applyResources(
  spec: Spec,
  res: LinuxContainerResources__Output | null | undefined,
  host: SpecHost,
  field: string,
  policy: { disableHugetlbController: boolean },
): void {
  if (res === null || res === undefined) return;
  const resources = ensureResources(spec);
  const cpu = (resources.cpu ??= {});
  const memory = (resources.memory ??= {});
  const period = int64(res.cpu_period, `${field}.cpu_period`);
  const quota = int64(res.cpu_quota, `${field}.cpu_quota`);
  const shares = int64(res.cpu_shares, `${field}.cpu_shares`);
  const limit = int64(res.memory_limit_in_bytes, `${field}.memory_limit_in_bytes`);
  const swap = int64(res.memory_swap_limit_in_bytes, `${field}.memory_swap_limit_in_bytes`);
  if (period !== 0) cpu.period = period;
  if (quota !== 0) cpu.quota = quota;
  if (shares !== 0) cpu.shares = shares;
  if (res.cpuset_cpus) cpu.cpus = res.cpuset_cpus;
  if (res.cpuset_mems) cpu.mems = res.cpuset_mems;
  if (limit !== 0) {
    memory.limit = limit;
    // swap = memory keeps the container from swapping unless it asked for swap explicitly.
    if (swap === 0 && host.swapControllerAvailable) memory.swap = limit;
  }
  if (swap !== 0 && host.swapControllerAvailable) memory.swap = swap;
  if (!policy.disableHugetlbController && host.hugetlbControllerAvailable) {
    for (const [i, h] of (res.hugepage_limits ?? []).entries()) {
      (resources.hugepageLimits ??= []).push({ pageSize: h.page_size, limit: int64(h.limit, `${field}.hugepage_limits[${i}].limit`) });
    }
  }
  const unified = Object.entries(res.unified ?? {});
  if (unified.length > 0) resources.unified = { ...(resources.unified ?? {}), ...Object.fromEntries(unified) };
  if (Object.keys(cpu).length === 0) delete resources.cpu;
  if (Object.keys(memory).length === 0) delete resources.memory;
}

/** containerd's restrictOOMScoreAdj: never below berthd's own score, so a container is never less killable. */
export function restrictOomScoreAdj(preferred: number, current: number): number {
  return preferred < current ? current : preferred;
}

/** Sets process.oomScoreAdj, clamped when the runtime restricts it. */
export function applyOomScoreAdj(spec: Spec, adj: number, restrict: boolean, current: number): void {
  ensureProcess(spec).oomScoreAdj = restrict ? restrictOomScoreAdj(adj, current) : adj;
}

/** Sets the CPU shares (the sandbox's default of 2, like containerd). */
export function applyCpuShares(spec: Spec, shares: number): void {
  const resources = ensureResources(spec);
  resources.cpu = { ...(resources.cpu ?? {}), shares };
}

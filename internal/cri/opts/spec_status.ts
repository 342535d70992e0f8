// What a container's current OCI spec reports back through ContainerStatus: the user and groups
// its process runs with (containerd 2.0's toCRIContainerUser) and its resource limits
// (copyResourcesToStatus). The stored spec is kept current by UpdateContainerResources, so both
// read the spec as it is now.
import type { ContainerResources } from '../../api/gen/runtime/v1/ContainerResources';
import type { ContainerUser } from '../../api/gen/runtime/v1/ContainerUser';
import type { LinuxContainerResources } from '../../api/gen/runtime/v1/LinuxContainerResources';
import type { Spec } from '../../oci/spec';

/** uid, gid and every additional gid of the spec's process; empty without a process. */
export function containerUserOf(spec: Spec): ContainerUser {
  const user = spec.process?.user;
  if (user === undefined) return {};
  return { linux: { uid: user.uid, gid: user.gid, supplemental_groups: [...(user.additionalGids ?? [])] } };
}

/** The CRI resources the spec sets: cpu, memory, hugepages, unified and the process's oom_score_adj. */
export function containerResourcesOf(spec: Spec): ContainerResources {
  if (spec.linux === undefined) return {};
  const linux: LinuxContainerResources = {};
  if (spec.process?.oomScoreAdj !== undefined) linux.oom_score_adj = spec.process.oomScoreAdj;
  const r = spec.linux.resources;
  if (r === undefined) return { linux };
  if (r.cpu !== undefined) {
    if (r.cpu.period !== undefined) linux.cpu_period = r.cpu.period;
    if (r.cpu.quota !== undefined) linux.cpu_quota = r.cpu.quota;
    if (r.cpu.shares !== undefined) linux.cpu_shares = r.cpu.shares;
    if (r.cpu.cpus !== undefined) linux.cpuset_cpus = r.cpu.cpus;
    if (r.cpu.mems !== undefined) linux.cpuset_mems = r.cpu.mems;
  }
  if (r.memory !== undefined) {
    if (r.memory.limit !== undefined) linux.memory_limit_in_bytes = r.memory.limit;
    if (r.memory.swap !== undefined) linux.memory_swap_limit_in_bytes = r.memory.swap;
  }
  if (r.hugepageLimits !== undefined) linux.hugepage_limits = r.hugepageLimits.map((h) => ({ page_size: h.pageSize, limit: h.limit }));
  if (r.unified !== undefined) linux.unified = { ...r.unified };
  return { linux };
}

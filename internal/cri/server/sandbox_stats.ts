// PodSandboxStats: the pod's cgroup (its cgroup parent, or the sum of its pause and container
// cgroups when it has none), the network counters of its namespace (read through the pause
// process), the processes of its running containers, and each container's stats. As in containerd,
// only a Ready pod has stats: asking for another one is Unavailable.
import type { PodSandboxStats } from '../../api/gen/runtime/v1/PodSandboxStats';
import type { PodSandboxStatsRequest__Output } from '../../api/gen/runtime/v1/PodSandboxStatsRequest';
import type { PodSandboxStatsResponse } from '../../api/gen/runtime/v1/PodSandboxStatsResponse';
import { unavailable } from '../../errdefs/errors';
import { cgroupsPath } from '../opts/resources';
import { CRI_NAMESPACE } from '../runtime_handler';
import { resolveCgroupParent, resolveCgroupsPath } from '../stats/cgroup_path';
import { containerState, type Container } from '../store/container';
import type { Sandbox } from '../store/sandbox';
import { collectContainerStats, containerCgroupPath, statsCollector, usesSystemdCgroup } from './container_stats';
import type { CriService } from './service';

export interface PodCgroups {
  /** The pod's own cgroup, when it was given a cgroup parent. */
  cgroupPath?: string;
  /** Otherwise the cgroups whose sum is the pod: the pause container's and its containers'. */
  memberCgroupPaths: string[];
}

/** Where the pod's usage is read from; a parent that cannot be resolved is logged and summed around. */
export function podCgroups(svc: CriService, sandbox: Sandbox, containers: readonly Container[]): PodCgroups {
  const m = sandbox.metadata;
  const systemd = usesSystemdCgroup(svc, m.runtimeHandler);
  try {
    if (m.cgroupParent !== '') return { cgroupPath: resolveCgroupParent(m.cgroupParent, systemd), memberCgroupPaths: [] };
    // The pause container's cgroup, placed as the sandbox spec placed it.
    const pause = resolveCgroupsPath(cgroupsPath('', sandbox.id, systemd, CRI_NAMESPACE), systemd);
    const members = containers.map((c) => containerCgroupPath(svc, c)).filter((p) => p !== undefined);
    return { memberCgroupPaths: [pause, ...members] };
  } catch (err) {
    svc.logger.warn('cannot resolve the cgroup of sandbox', { sandbox: sandbox.id, cgroupParent: m.cgroupParent, error: err });
    return { memberCgroupPaths: [] };
  }
}

/** The stats of a Ready pod. */
export async function collectPodSandboxStats(svc: CriService, sandbox: Sandbox): Promise<PodSandboxStats> {
  const m = sandbox.metadata;
  const containers = svc.rt.containers.listBySandbox(sandbox.id);
  const containerStats = await Promise.all(containers.map((c) => collectContainerStats(svc, c)));
  // containerd counts the processes of the pod's running containers (the pause process is not one).
  let processCount = 0;
  containers.forEach((c, i) => {
    if (containerState(c.status) === 'CONTAINER_RUNNING') processCount += containerStats[i]!.processCount ?? 0;
  });
  const collector = statsCollector(svc);
  const usage = collector.pod({ id: sandbox.id, ...podCgroups(svc, sandbox, containers), pid: sandbox.status.pid, netnsPath: m.netnsPath });
  return {
    attributes: { id: sandbox.id, metadata: m.config.metadata, labels: m.config.labels, annotations: m.config.annotations },
    linux: {
      ...usage,
      process: collector.processUsage(processCount),
      containers: containerStats.map((s) => s.stats),
    },
  };
}

export async function podSandboxStats(svc: CriService, req: PodSandboxStatsRequest__Output): Promise<PodSandboxStatsResponse> {
  const sandbox = svc.rt.sandboxes.get(req.pod_sandbox_id);
  if (sandbox.status.state !== 'ready') {
    throw unavailable(`sandbox "${sandbox.id}" is not ready (state ${sandbox.status.state}): it has no stats`);
  }
  return { stats: await collectPodSandboxStats(svc, sandbox) };
}

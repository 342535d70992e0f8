// ContainerStats, and what the other stats verbs share: the per-daemon StatsCollector (it keeps the
// previous CPU sample of each container and pod, and the writable-layer figures) and the mapping
// from a stored container to its cgroup and snapshot.
import { join } from 'node:path';
import type { ContainerStats } from '../../api/gen/runtime/v1/ContainerStats';
import type { ContainerStatsRequest__Output } from '../../api/gen/runtime/v1/ContainerStatsRequest';
import type { ContainerStatsResponse } from '../../api/gen/runtime/v1/ContainerStatsResponse';
import type { Spec } from '../../oci/spec';
import { hostCgroupLayout } from '../stats/cgroup_layout';
import { resolveCgroupsPath } from '../stats/cgroup_path';
import { cgroupReaderFor } from '../stats/cgroup_reader';
import { StatsCollector, type ContainerUsage } from '../stats/collector';
import type { Container } from '../store/container';
import type { CriService, RuntimeDeps } from './service';

const collectors = new WeakMap<RuntimeDeps, StatsCollector>();

/** The daemon's collector, made on first use. */
export function statsCollector(svc: CriService): StatsCollector {
  const rt = svc.rt;
  let collector = collectors.get(rt);
  if (collector === undefined) {
    collector = new StatsCollector({
      reader: cgroupReaderFor(hostCgroupLayout()),
      snapshotUsage: (key) => rt.snapshotter.usage(key),
      snapshotMountpoint: join(svc.config.root, 'overlayfs'),
      logger: svc.logger.with({ component: 'stats' }),
    });
    collectors.set(rt, collector);
  }
  return collector;
}

/**
 * Drops the collector's state for containers, pods and snapshots that are gone: after the
 * List*Stats calls, and with every background ImageFsInfo measurement, so ContainerStats and
 * PodSandboxStats of containers since removed (a client that never lists) do not add up for good.
 */
export function pruneStats(svc: CriService): void {
  const containers = svc.rt.containers.list();
  const sandboxes = svc.rt.sandboxes.list();
  statsCollector(svc).retain({
    containerIds: containers.map((c) => c.id),
    sandboxIds: sandboxes.map((s) => s.id),
    // The pause containers' snapshots too: ImageFsInfo reads every active snapshot's figure there.
    snapshotKeys: [...containers.map((c) => c.metadata.snapshotKey), ...sandboxes.map((s) => s.metadata.snapshotKey)],
  });
}

/** Whether runc places this runtime handler's cgroups through systemd. */
export function usesSystemdCgroup(svc: CriService, runtimeHandler: string): boolean {
  return svc.config.cri.runtimes[runtimeHandler]?.options.SystemdCgroup ?? false;
}

/** The container's cgroup relative to the hierarchy root, from its stored spec; undefined when none. */
export function containerCgroupPath(svc: CriService, container: Container): string | undefined {
  const cgroupsPath = (container.spec as Spec | null)?.linux?.cgroupsPath;
  if (typeof cgroupsPath !== 'string' || cgroupsPath === '') return undefined;
  try {
    return resolveCgroupsPath(cgroupsPath, usesSystemdCgroup(svc, container.metadata.runtimeHandler));
  } catch (err) {
    svc.logger.warn('container has a cgroupsPath stats cannot resolve', { container: container.id, cgroupsPath, error: err });
    return undefined;
  }
}

export interface ContainerStatsWithProcesses {
  stats: ContainerStats;
  /** Processes in the container's cgroup; undefined when it could not be read. */
  processCount?: number;
}

/** A container's stats: attributes always; cpu and memory while its cgroup exists; its writable layer. */
export async function collectContainerStats(svc: CriService, container: Container): Promise<ContainerStatsWithProcesses> {
  const m = container.metadata;
  const { processCount, ...usage }: ContainerUsage = await statsCollector(svc).container({
    id: container.id,
    cgroupPath: containerCgroupPath(svc, container),
    snapshotKey: m.snapshotKey,
  });
  return {
    stats: {
      attributes: { id: container.id, metadata: m.config.metadata, labels: m.config.labels, annotations: m.config.annotations },
      ...usage,
    },
    processCount,
  };
}

export async function containerStats(svc: CriService, req: ContainerStatsRequest__Output): Promise<ContainerStatsResponse> {
  const container = svc.rt.containers.get(req.container_id);
  return { stats: (await collectContainerStats(svc, container)).stats };
}

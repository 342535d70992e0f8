// ListContainerStats with containerd's filter semantics: `id` and `pod_sandbox_id` may be unique
// prefixes (resolved through the stores, exact match otherwise, so an unknown one matches nothing),
// and every label_selector pair must match.
import type { ContainerStatsFilter__Output } from '../../api/gen/runtime/v1/ContainerStatsFilter';
import type { ListContainerStatsRequest__Output } from '../../api/gen/runtime/v1/ListContainerStatsRequest';
import type { ListContainerStatsResponse } from '../../api/gen/runtime/v1/ListContainerStatsResponse';
import type { Container } from '../store/container';
import { collectContainerStats, pruneStats } from './container_stats';
import type { CriService } from './service';
import { mapInTurns } from '../util/turns';
import { resolveId } from './filters';

/** Containers whose stats are read between two turns of the event loop. */
const CONTAINERS_PER_TURN = 16;


export function containersForStats(svc: CriService, filter: ContainerStatsFilter__Output | null): Container[] {
  const containers = svc.rt.containers;
  if (!filter) return containers.list();
  // The containers carrying the labels, found by label (as ListContainers).
  let list = containers.withLabels(filter.label_selector);
  if (filter.id !== '') {
    const id = resolveId((x) => containers.get(x), filter.id);
    list = list.filter((c) => c.id === id);
  }
  if (filter.pod_sandbox_id !== '') {
    const sandboxId = resolveId((x) => svc.rt.sandboxes.get(x), filter.pod_sandbox_id);
    list = list.filter((c) => c.metadata.sandboxId === sandboxId);
  }
  return list;
}

export async function listContainerStats(svc: CriService, req: ListContainerStatsRequest__Output): Promise<ListContainerStatsResponse> {
  const containers = containersForStats(svc, req.filter);
  const stats = await mapInTurns(containers, CONTAINERS_PER_TURN, async (c) => (await collectContainerStats(svc, c)).stats);
  pruneStats(svc);
  return { stats };
}

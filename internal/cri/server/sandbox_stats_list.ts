// ListPodSandboxStats: the stats of every Ready pod matching the filter (`id` an ID or unique
// prefix, every label_selector pair matching). Pods that are not Ready are left out, as containerd
// does, since kubelet polls this while pods come and go.
import type { ListPodSandboxStatsRequest__Output } from '../../api/gen/runtime/v1/ListPodSandboxStatsRequest';
import type { ListPodSandboxStatsResponse } from '../../api/gen/runtime/v1/ListPodSandboxStatsResponse';
import { pruneStats } from './container_stats';
import { resolveId } from './filters';
import { mapInTurns } from '../util/turns';
import { collectPodSandboxStats } from './sandbox_stats';
import type { CriService } from './service';

/** Pods whose stats (their containers' included) are read between two turns of the event loop. */
const PODS_PER_TURN = 4;

export async function listPodSandboxStats(svc: CriService, req: ListPodSandboxStatsRequest__Output): Promise<ListPodSandboxStatsResponse> {
  const store = svc.rt.sandboxes;
  const filter = req.filter;
  // The pods carrying the labels, found by label (as ListPodSandbox).
  let sandboxes = store.withLabels(filter?.label_selector).filter((s) => s.status.state === 'ready');
  if (filter) {
    if (filter.id !== '') {
      const id = resolveId((x) => store.get(x), filter.id);
      sandboxes = sandboxes.filter((s) => s.id === id);
    }
  }
  const stats = await mapInTurns(sandboxes, PODS_PER_TURN, (s) => collectPodSandboxStats(svc, s));
  pruneStats(svc);
  return { stats };
}

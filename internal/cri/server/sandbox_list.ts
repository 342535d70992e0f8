// ListPodSandbox with the CRI filters: ID (or unique prefix), state, label selector (all must match).
// Each pod's item is kept while its state is unchanged (list_views.ts).
import type { ListPodSandboxRequest__Output } from '../../api/gen/runtime/v1/ListPodSandboxRequest';
import type { ListPodSandboxResponse } from '../../api/gen/runtime/v1/ListPodSandboxResponse';
import type { PodSandbox } from '../../api/gen/runtime/v1/PodSandbox';
import { reportedRuntimeHandler, type Sandbox } from '../store/sandbox';
import { ListViews } from './list_views';
import { criSandboxState } from './sandbox_status';
import { resolveId } from './filters';
import type { CriService } from './service';

/** What a pod shows in a list; only its state changes after it is created. */
const views = new ListViews<Sandbox, PodSandbox>(
  (s) => ({
    id: s.id,
    metadata: s.metadata.config.metadata,
    state: criSandboxState(s),
    created_at: s.status.createdAt,
    labels: s.metadata.config.labels,
    annotations: s.metadata.config.annotations,
    runtime_handler: reportedRuntimeHandler(s.metadata),
  }),
  (s) => criSandboxState(s),
);

export async function listPodSandbox(svc: CriService, req: ListPodSandboxRequest__Output): Promise<ListPodSandboxResponse> {
  const filter = req.filter;
  // The pods carrying the labels, found by label: the kubelet asks for one pod by its UID label.
  let sandboxes = svc.rt.sandboxes.withLabels(filter?.label_selector);
  if (filter) {
    if (filter.id !== '') {
      const id = resolveId((x) => svc.rt.sandboxes.get(x), filter.id);
      sandboxes = sandboxes.filter((s) => s.id === id);
    }
    if (filter.state) sandboxes = sandboxes.filter((s) => criSandboxState(s) === filter.state!.state);
  }
  return { items: sandboxes.map((s) => views.of(s)) };
}

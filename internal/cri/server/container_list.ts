// ListContainers with the CRI filters: ID or unique prefix and pod sandbox ID or unique prefix (an
// unknown or ambiguous one matches nothing, as containerd normalizes them), state, label selector.
// Like containerd's toCRIContainer: image is the request's image spec and image_ref the image ID
// (kubelets before 1.30 match image_ref against image IDs for image GC; a repo digest there would
// let an image in use be collected). ContainerStatus shows the repo tag and digest instead. Each
// container's item is kept while its state is unchanged (list_views.ts).
import type { ListContainersRequest__Output } from '../../api/gen/runtime/v1/ListContainersRequest';
import type { ListContainersResponse } from '../../api/gen/runtime/v1/ListContainersResponse';
import type { Container as CriContainer } from '../../api/gen/runtime/v1/Container';
import { containerState, type Container } from '../store/container';
import { ListViews } from './list_views';
import { ID_LENGTH } from '../util/ids';
import { labelMatcher, resolveId } from './filters';
import type { CriService } from './service';

/** What a container shows in a list; only its state changes after it is created. */
const views = new ListViews<Container, CriContainer>(
  (c) => ({
    id: c.id,
    pod_sandbox_id: c.metadata.sandboxId,
    metadata: c.metadata.config.metadata,
    image: c.metadata.config.image,
    image_ref: c.metadata.imageId,
    image_id: c.metadata.imageId,
    state: containerState(c.status),
    created_at: c.status.createdAt,
    labels: c.metadata.config.labels,
    annotations: c.metadata.config.annotations,
  }),
  (c) => containerState(c.status),
);

/**
 * The containers the filter's pod sandbox ID and labels leave: the pod's own containers when the
 * ID is whole (a 64-character prefix of a 64-character ID is that ID), those carrying the labels
 * otherwise, so the kubelet's per-pod lists do not test every container on the node.
 */
function candidates(svc: CriService, filter: ListContainersRequest__Output['filter']): Container[] {
  const store = svc.rt.containers;
  if (!filter) return store.list();
  if (filter.pod_sandbox_id.length === ID_LENGTH) return store.listBySandbox(filter.pod_sandbox_id);
  return store.withLabels(filter.label_selector);
}

// async: the handler table takes promises.
export async function listContainers(svc: CriService, req: ListContainersRequest__Output): Promise<ListContainersResponse> {
  const filter = req.filter;
  let containers = candidates(svc, filter);
  if (filter) {
    if (filter.id !== '') {
      const id = resolveId((x) => svc.rt.containers.get(x), filter.id);
      containers = containers.filter((c) => c.id === id);
    }
    if (filter.pod_sandbox_id !== '') {
      const sandboxId = resolveId((x) => svc.rt.sandboxes.get(x), filter.pod_sandbox_id);
      containers = containers.filter((c) => c.metadata.sandboxId === sandboxId);
    }
    if (filter.state) containers = containers.filter((c) => containerState(c.status) === filter.state!.state);
    const labelled = labelMatcher(filter.label_selector);
    containers = containers.filter((c) => labelled(c.metadata.config.labels));
  }
  return { containers: containers.map((c) => views.of(c)) };
}

// UpdateContainerResources, as containerd 1.6 does it: the stored spec is the source of truth for
// limits, so it is updated first (a created container starts with the new limits); a running
// container's task gets the new OCI LinuxResources too, and the old spec comes back if that fails.
// An exited container only has its spec updated.
import type { UpdateContainerResourcesRequest__Output } from '../../api/gen/runtime/v1/UpdateContainerResourcesRequest';
import type { UpdateContainerResourcesResponse } from '../../api/gen/runtime/v1/UpdateContainerResourcesResponse';
import { failedPrecondition, isNotFound, wrap } from '../../errdefs/errors';
import type { Spec } from '../../oci/spec';
import { applyResources } from '../opts/resources';
import { validateResources } from '../opts/validate';
import { containerState } from '../store/container';
import type { CriService } from './service';

const FIELD = 'update container resources linux';

export async function updateContainerResources(
  svc: CriService,
  req: UpdateContainerResourcesRequest__Output,
): Promise<UpdateContainerResourcesResponse> {
  const rt = svc.rt;
  const container = rt.containers.get(req.container_id);
  const resources = req.linux;
  if (resources === null) return {};
  validateResources(resources, FIELD);
  await rt.locks.run(container.id, async () => {
    if (container.removing) throw failedPrecondition(`container ${container.id} is in removing state`);
    const oldSpec = container.spec as Spec;
    const newSpec = structuredClone(oldSpec);
    // A new hugepage list replaces the old one instead of adding to it.
    if (resources.hugepage_limits.length > 0) delete newSpec.linux?.resources?.hugepageLimits;
    applyResources(newSpec, resources, rt.host, FIELD, { disableHugetlbController: svc.config.cri.disable_hugetlb_controller });
    rt.containers.updateSpec(container.id, newSpec);
    if (containerState(container.status) !== 'CONTAINER_RUNNING') return;
    const task = rt.tasks.get(container.id);
    if (!task) return; // exited meanwhile
    try {
      await task.update(newSpec.linux?.resources ?? {});
    } catch (err) {
      if (isNotFound(err)) return;
      rt.containers.updateSpec(container.id, oldSpec);
      throw wrap(err, `update resources of container ${container.id}`);
    }
  });
  return {};
}

// RemoveContainer: idempotent (an unknown ID is already removed); a running container is killed
// first (stop with timeout 0), then its task, IO, snapshot and dirs go, and the row last, so a kill
// part way leaves a row that a second RemoveContainer (or the start-up sweep) finishes. The log file
// stays: kubelet owns it.
import type { RemoveContainerRequest__Output } from '../../api/gen/runtime/v1/RemoveContainerRequest';
import type { RemoveContainerResponse } from '../../api/gen/runtime/v1/RemoveContainerResponse';
import { failedPrecondition, isNotFound, messageOf, wrap } from '../../errdefs/errors';
import { containerIOs } from '../container_io';
import { containerState, type Container } from '../store/container';
import { nowNanos } from '../store/time';
import { crashPoint } from '../util/crash_points';
import { stopContainerLocked } from './container_stop';
import { hookContainer, hookSandbox } from './hook_views';
import type { CriService } from './service';

function setRemoving(container: Container): void {
  const state = containerState(container.status);
  if (state === 'CONTAINER_RUNNING') throw failedPrecondition(`container ${container.id} is still running, to stop first`);
  if (state === 'CONTAINER_UNKNOWN') throw failedPrecondition(`container ${container.id} state is unknown, to stop first`);
  if (container.starting) throw failedPrecondition(`container ${container.id} is in starting state, can't be removed`);
  if (container.removing) throw failedPrecondition(`container ${container.id} is already in removing state`);
  container.removing = true;
}

async function removeLocked(svc: CriService, container: Container): Promise<void> {
  const rt = svc.rt;
  const { id, metadata: m } = container;
  const state = containerState(container.status);
  if (state === 'CONTAINER_RUNNING' || state === 'CONTAINER_UNKNOWN') {
    svc.logger.info('forcibly stopping container before removal', { containerId: id });
    await stopContainerLocked(svc, container, 0);
  }
  setRemoving(container);
  try {
    await rt.tasks.get(id)?.delete();
    crashPoint('container_remove:after_task_delete');
    const ios = containerIOs(rt.containers);
    ios.get(id)?.close(); // its FIFOs live under stateDir, removed below
    ios.delete(id);
    await rt.snapshotter.remove(m.snapshotKey).catch((err: unknown) => {
      if (!isNotFound(err)) throw wrap(err, `remove snapshot of container ${id}`);
    });
    // Renamed into the trash now, deleted in the background (containerd leaves this to its GC);
    // the row, deleted last, owns them until the renames are done.
    rt.trash.root.discard(m.rootDir);
    rt.trash.state.discard(m.stateDir);
    crashPoint('container_remove:after_snapshot');
    rt.containers.delete(id);
    rt.containerNames.releaseByKey(id);
  } catch (err) {
    container.removing = false;
    throw wrap(err, `remove container ${id}`);
  }
}

export async function removeContainer(svc: CriService, req: RemoveContainerRequest__Output): Promise<RemoveContainerResponse> {
  const rt = svc.rt;
  const container = rt.containers.find(req.container_id);
  if (!container) return {};
  const removed = await rt.locks.run(container.id, async () => {
    if (rt.containers.tryGet(container.id) !== container) return false; // removed while we waited
    await removeLocked(svc, container);
    return true;
  });
  if (!removed) return {};
  svc.logger.info('container removed', { containerId: container.id });
  rt.events.publish({ containerId: container.id, sandboxId: container.metadata.sandboxId, type: 'CONTAINER_DELETED_EVENT', createdAt: nowNanos() });
  const sandbox = rt.sandboxes.tryGet(container.metadata.sandboxId);
  if (sandbox) {
    await rt.hooks.removeContainer?.(hookSandbox(sandbox), hookContainer(container)).catch((err: unknown) => {
      svc.logger.warn('remove hook failed', { containerId: container.id, error: messageOf(err) });
    });
  }
  return {};
}

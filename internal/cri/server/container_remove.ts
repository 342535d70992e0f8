// RemoveContainer: idempotent (an unknown ID is already removed); a running container is killed
// first (stop with timeout 0), then its task and IO go, so a kill up to there leaves a row that a
// second RemoveContainer finishes. Then the row, the snapshot and the dirs, as containerd deletes
// the container's record and its snapshot's together and leaves the files to its GC: the
// snapshotter's flush before it renames the snapshot away covers the row too (one fsync per
// removal, not two), and a kill after the row leaves only what the start-up sweep removes (an
// active snapshot and dirs no record owns). The log file stays: kubelet owns it.
import type { RemoveContainerRequest__Output } from '../../api/gen/runtime/v1/RemoveContainerRequest';
import type { RemoveContainerResponse } from '../../api/gen/runtime/v1/RemoveContainerResponse';
import { failedPrecondition, isNotFound, messageOf, wrap } from '../../errdefs/errors';
import { containerIOs } from '../container_io';
import { collectImageSnapshotsIfOrphaned } from '../snapshot_gc';
import { containerState, type Container } from '../store/container';
import { nowNanos } from '../store/time';
import { crashPoint } from '../util/crash_points';
import { stopContainerLocked } from './container_stop';
import { callSignal, type CallEnd } from '../util/call_signal';
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

async function removeLocked(svc: CriService, container: Container, callEnded: AbortSignal | undefined): Promise<void> {
  const rt = svc.rt;
  const { id, metadata: m } = container;
  const state = containerState(container.status);
  if (state === 'CONTAINER_RUNNING' || state === 'CONTAINER_UNKNOWN') {
    svc.logger.info('forcibly stopping container before removal', { containerId: id });
    await stopContainerLocked(svc, container, 0, callEnded);
  }
  setRemoving(container);
  try {
    await rt.tasks.get(id)?.delete();
    crashPoint('container_remove:after_task_delete');
    const ios = containerIOs(rt.containers);
    ios.get(id)?.close(); // its FIFOs live under stateDir, removed below
    ios.delete(id);
    rt.containers.delete(id);
  } catch (err) {
    container.removing = false;
    throw wrap(err, `remove container ${id}`);
  }
  rt.containerNames.releaseByKey(id);
  try {
    await rt.snapshotter.remove(m.snapshotKey).catch((err: unknown) => {
      if (!isNotFound(err)) throw wrap(err, `remove snapshot of container ${id}`);
    });
    crashPoint('container_remove:after_snapshot');
    // The row's deletion is on disk before its dirs go (already, unless the snapshot was gone).
    await rt.db.durable();
    // Renamed into the trash now, deleted in the background (containerd leaves this to its GC).
    rt.trash.root.discard(m.rootDir);
    rt.trash.state.discard(m.stateDir);
    collectImageSnapshotsIfOrphaned(rt.snapshotter, rt.images, m.imageId, svc.logger);
  } catch (err) {
    // The container is removed (its record is gone); what is left the start-up sweep removes.
    svc.logger.error('container removed; its snapshot or dirs are left for the next start', { containerId: id, error: messageOf(err) });
  }
}

export function removeContainer(svc: CriService, req: RemoveContainerRequest__Output, call: CallEnd): Promise<RemoveContainerResponse> {
  return removeContainerUntil(svc, req, callSignal(call));
}

/** RemoveContainer, a forced stop's wait ending when `callEnded` aborts. */
export async function removeContainerUntil(svc: CriService, req: RemoveContainerRequest__Output, callEnded?: AbortSignal): Promise<RemoveContainerResponse> {
  const rt = svc.rt;
  const container = rt.containers.find(req.container_id);
  if (!container) return {};
  const removed = await rt.locks.run(container.id, async () => {
    if (rt.containers.tryGet(container.id) !== container) return false; // removed while we waited
    await removeLocked(svc, container, callEnded);
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

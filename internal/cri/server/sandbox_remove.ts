// RemovePodSandbox: stops the pod if needed, removes its containers, the pause task, snapshot,
// directories and record, and frees its name. Removing a pod that is already gone succeeds.
import { collectImageSnapshotsIfOrphaned } from '../snapshot_gc';
import type { RemovePodSandboxRequest__Output } from '../../api/gen/runtime/v1/RemovePodSandboxRequest';
import type { RemovePodSandboxResponse } from '../../api/gen/runtime/v1/RemovePodSandboxResponse';
import { isNotFound } from '../../errdefs/errors';
import { nowNanos } from '../store/time';
import { removeContainerUntil } from './container_remove';
import { hookSandbox } from './hook_views';
import { stopSandbox } from './sandbox_stop';
import type { CriService } from './service';
import { callSignal, type CallEnd } from '../util/call_signal';
import { crashPoint } from '../util/crash_points';
import { removeTreeSync } from '../../fs/remove_tree';

export async function removePodSandbox(
  svc: CriService,
  req: RemovePodSandboxRequest__Output,
  call: CallEnd,
): Promise<RemovePodSandboxResponse> {
  const rt = svc.rt;
  const sandbox = rt.sandboxes.find(req.pod_sandbox_id);
  if (!sandbox) return {};
  const callEnded = callSignal(call);
  // Stopping is idempotent and makes sure nothing of the pod still runs or holds the network.
  await stopSandbox(svc, sandbox, callEnded);

  for (const c of rt.containers.listBySandbox(sandbox.id)) {
    await removeContainerUntil(svc, { container_id: c.id }, callEnded);
  }

  await rt.locks.run(sandbox.id, async () => {
    await rt.tasks.get(sandbox.id)?.delete();
    await rt.snapshotter.remove(sandbox.metadata.snapshotKey).catch((err: unknown) => {
      if (!isNotFound(err)) throw err;
    });
    collectImageSnapshotsIfOrphaned(rt.snapshotter, rt.images, sandbox.metadata.imageId, svc.logger);
    removeTreeSync(sandbox.metadata.stateDir);
    removeTreeSync(sandbox.metadata.rootDir);
    crashPoint('sandbox_remove:before_record_delete');
    rt.sandboxes.delete(sandbox.id);
    rt.sandboxNames.releaseByKey(sandbox.id);
    rt.events.publish({ containerId: sandbox.id, sandboxId: sandbox.id, type: 'CONTAINER_DELETED_EVENT', createdAt: nowNanos() });
    await rt.hooks.removePodSandbox?.(hookSandbox(sandbox));
    svc.logger.info('pod sandbox removed', { podSandboxId: sandbox.id });
  });
  return {};
}

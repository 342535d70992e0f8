// Exit monitors: when a task's init process exits, record it (persisted), emit the CRI event,
// and for sandboxes mark the pod NotReady. containerd runs the same from its event monitor.
import { messageOf } from '../../errdefs/errors';
import { retryWithBackoff } from '../util/retry';
import { metrics } from '../../metrics';
import { dateToNanos, nowNanos } from '../store/time';
import type { CriTask, TaskExit } from '../tasks/types';
import type { CriService } from './service';


/** Records the sandbox's exit when its task exits; resolves once that is done. */
export function monitorSandboxExit(svc: CriService, sandboxId: string, task: CriTask): Promise<void> {
  return task.exited
    // An exit seen while the database cannot be written (a full disk) is recorded once it can be.
    .then((exit) => retryWithBackoff(svc.logger.with({ podSandboxId: sandboxId }), 'recording the sandbox exit', () => recordSandboxExit(svc, sandboxId, exit)))
    // Never an unhandled rejection (it would end berthd): a failure here is logged.
    .catch((err: unknown) => svc.logger.error('sandbox exit monitor failed', { podSandboxId: sandboxId, error: messageOf(err) }));
}

export function recordSandboxExit(svc: CriService, sandboxId: string, exit: TaskExit): void {
  const sandbox = svc.rt.sandboxes.tryGet(sandboxId);
  if (!sandbox || sandbox.status.state === 'notready') return;
  svc.rt.sandboxes.updateStatus(sandboxId, (s) => ({
    ...s,
    state: 'notready',
    // As containerd's handleSandboxExit: no pause process to join or to show in the verbose status.
    pid: 0,
    exitStatus: exit.exitStatus,
    exitedAt: dateToNanos(exit.exitedAt),
  }));
  svc.logger.info('sandbox exited', { podSandboxId: sandboxId, exitStatus: exit.exitStatus });
  svc.rt.events.publish({ containerId: sandboxId, sandboxId, type: 'CONTAINER_STOPPED_EVENT', createdAt: nowNanos() });
}

/** kubelet's reasons: Completed for 0, OOMKilled when the OOM killer did it, Error otherwise. */
export function recordContainerExit(svc: CriService, containerId: string, exit: TaskExit, oomKilled = false): void {
  const container = svc.rt.containers.tryGet(containerId);
  if (!container || container.status.finishedAt !== '0') return;
  const reason = oomKilled ? 'OOMKilled' : exit.exitStatus === 0 ? 'Completed' : 'Error';
  const recorded = svc.rt.containers.updateStatus(containerId, (s) => ({
    ...s,
    pid: 0,
    finishedAt: dateToNanos(exit.exitedAt),
    exitCode: exit.exitStatus,
    reason: s.reason === '' || s.reason === 'Unknown' ? reason : s.reason,
  }));
  svc.logger.info('container exited', { containerId, exitCode: exit.exitStatus, reason });
  metrics().containerExit(recorded.reason);
  svc.rt.events.publish({
    containerId,
    sandboxId: container.metadata.sandboxId,
    type: 'CONTAINER_STOPPED_EVENT',
    createdAt: nowNanos(),
  });
}


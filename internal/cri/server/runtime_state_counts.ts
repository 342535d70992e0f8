// The pod, container and shim gauges of the metrics, counted from the stores when scraped.
import type { RuntimeStateCounts } from '../../metrics';
import { containerState } from '../store/container';
import type { CriService } from './service';
import { criSandboxState } from './sandbox_status';

/**
 * Pods and containers by CRI state (every state present, zeros included), and the shims berth has
 * live tasks in: one per pod while its pause or any of its containers has a task, since the pod's
 * tasks share its shim and the shim exits when its last task is deleted.
 */
export function countRuntimeState(svc: CriService): RuntimeStateCounts {
  const rt = svc.rt;
  const pods: Record<string, number> = { SANDBOX_READY: 0, SANDBOX_NOTREADY: 0 };
  const containers: Record<string, number> = { CONTAINER_CREATED: 0, CONTAINER_RUNNING: 0, CONTAINER_EXITED: 0, CONTAINER_UNKNOWN: 0 };
  const withTask = new Set<string>();
  for (const sandbox of rt.sandboxes.list()) {
    pods[criSandboxState(sandbox)] += 1;
    if (rt.tasks.get(sandbox.id)) withTask.add(sandbox.id);
  }
  for (const container of rt.containers.list()) {
    containers[containerState(container.status)] += 1;
    if (rt.tasks.get(container.id)) withTask.add(container.metadata.sandboxId);
  }
  return { pods, containers, shims: withTask.size };
}

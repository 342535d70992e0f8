// What ExecSync, the streaming exec and the Exec/Attach RPCs share: a running container with a
// live task, and an exec process made from the container's own process spec.
import { join } from 'node:path';
import { failedPrecondition } from '../errdefs/errors';
import type { Process, Spec } from '../oci/spec';
import { containerState, type Container } from './store/container';
import type { CriTask } from './tasks/types';
import { generateId } from './util/ids';
import type { RuntimeDeps } from './server/service';

export function runningTask(rt: RuntimeDeps, containerId: string): { container: Container; task: CriTask } {
  const container = rt.containers.get(containerId);
  const state = containerState(container.status);
  if (state !== 'CONTAINER_RUNNING') throw failedPrecondition(`container ${container.id} is in ${state} state`);
  const task = rt.tasks.get(container.id);
  if (!task) throw failedPrecondition(`container ${container.id} has no running task`);
  return { container, task };
}

export interface ExecSetup {
  execId: string;
  /**
   * Where this exec's FIFOs go: the container's exec dir (under its state dir, removed with it),
   * shared by its exec processes, each naming its FIFOs after `fifoId`.
   */
  dir: string;
  fifoId: string;
  process: Process;
}

/** containerd's exec: the container's process spec with other args (and terminal setting). */
export function execSetup(container: Container, cmd: readonly string[], terminal: boolean): ExecSetup {
  const spec = container.spec as Spec;
  if (!spec.process) throw failedPrecondition(`container ${container.id}: its stored spec has no process`);
  const execId = generateId();
  return {
    execId,
    dir: join(container.metadata.stateDir, 'exec'),
    fifoId: execId.slice(0, 16),
    process: { ...structuredClone(spec.process), args: [...cmd], terminal },
  };
}

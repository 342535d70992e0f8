// StartContainer, in containerd's order: only a CREATED container may start (Starting set in
// memory), its sandbox must be Ready, stdio FIFOs are connected to the CRI log, the task is created
// through the pod's shim (runc create) from the stored spec (or the pre-start hook's replacement),
// then started (runc start); PID and start time are persisted, the exit watcher attached,
// CONTAINER_STARTED emitted. Any failure after Starting was set marks the container EXITED with
// reason StartError (as containerd does: the container stays, kubelet removes it) after unwinding
// the task and its IO.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { StartContainerRequest__Output } from '../../api/gen/runtime/v1/StartContainerRequest';
import type { StartContainerResponse } from '../../api/gen/runtime/v1/StartContainerResponse';
import { failedPrecondition, messageOf, wrap } from '../../errdefs/errors';
import type { Spec } from '../../oci/spec';
import { ContainerIO, containerIOs, type ContainerIOOptions } from '../container_io';
import { resolveRuntimeHandler } from '../runtime_handler';
import { containerState, type Container } from '../store/container';
import { nowNanos } from '../store/time';
import type { CriTask } from '../tasks/types';
import { CleanupStack } from '../util/cleanup';
import { callDeadlineMs, type CallDeadline } from '../util/call_signal';
import { crashPoint } from '../util/crash_points';
import { validateTargetContainer } from './container_create';
import { watchContainerExit } from './container_stop';
import { hookContainer, hookSandbox } from './hook_views';
import type { CriService } from './service';

/** containerd's errorStartExitCode / errorStartReason. */
const START_ERROR_EXIT_CODE = 128;
const START_ERROR_REASON = 'StartError';

function setStarting(container: Container): void {
  const state = containerState(container.status);
  if (state !== 'CONTAINER_CREATED') throw failedPrecondition(`container ${container.id} is in ${state} state`);
  if (container.removing) throw failedPrecondition(`container ${container.id} is in removing state, can't be started`);
  if (container.starting) throw failedPrecondition(`container ${container.id} is already in starting state`);
  container.starting = true;
}

export async function startContainer(svc: CriService, req: StartContainerRequest__Output, call: CallDeadline): Promise<StartContainerResponse> {
  const rt = svc.rt;
  const container = rt.containers.get(req.container_id);
  const id = container.id;
  return rt.locks.run(id, async () => {
    setStarting(container);
    try {
      await startLocked(svc, container, callDeadlineMs(call));
    } catch (err) {
      markStartError(svc, container, err);
      throw wrap(err, `start container ${id}`);
    } finally {
      container.starting = false;
    }
    return {};
  });
}

/**
 * Where a container's FIFOs are: its state dir. A container an earlier berth started (still running
 * across the upgrade) has them in <state dir>/io, where recovery must still find them.
 */
function fifoDirOf(m: Container['metadata'], existing: boolean): string {
  const legacy = join(m.stateDir, 'io');
  return existing && existsSync(legacy) ? legacy : m.stateDir;
}

function containerIOOptions(svc: CriService, container: Container, existing: boolean): ContainerIOOptions {
  const m = container.metadata;
  return {
    dir: fifoDirOf(m, existing),
    id: container.id,
    stdin: m.config.stdin,
    tty: m.config.tty,
    logPath: m.logPath,
    logDirectory: svc.rt.sandboxes.tryGet(m.sandboxId)?.metadata.config.log_directory,
    maxLineSize: svc.config.cri.max_container_log_line_size,
    logger: svc.logger.with({ containerId: container.id }),
  };
}

/**
 * Recovery: reconnects a running container's output to its log after a berthd restart and
 * registers it (for ReopenContainerLog, attach). Pass the result to watchContainerExit with the
 * reconnected task. Undefined (logged) when the FIFOs are gone.
 */
export function reattachContainerIO(svc: CriService, container: Container): ContainerIO | undefined {
  try {
    const io = ContainerIO.attach(containerIOOptions(svc, container, true));
    containerIOs(svc.rt.containers).set(container.id, io);
    return io;
  } catch (err) {
    svc.logger.warn('cannot reattach container output', { containerId: container.id, error: messageOf(err) });
    return undefined;
  }
}

function markStartError(svc: CriService, container: Container, err: unknown): void {
  try {
    svc.rt.containers.updateStatus(container.id, (s) => ({
      ...s,
      pid: 0,
      finishedAt: nowNanos(),
      exitCode: START_ERROR_EXIT_CODE,
      reason: START_ERROR_REASON,
      message: messageOf(err),
    }));
  } catch (updateErr) {
    svc.logger.error('failed to mark container start error', { containerId: container.id, error: messageOf(updateErr) });
  }
}

async function startLocked(svc: CriService, container: Container, deadlineMs: number | undefined): Promise<void> {
  const rt = svc.rt;
  const { id, metadata: m } = container;
  const log = svc.logger.with({ containerId: id, podSandboxId: m.sandboxId });
  const sandbox = rt.sandboxes.get(m.sandboxId);
  if (sandbox.status.state !== 'ready' || sandbox.stopping) throw failedPrecondition(`sandbox container ${sandbox.id} is not running`);
  // The spec names the target's /proc/<pid>/ns/pid: a target gone since create would leave that
  // path to whatever process gets its PID next.
  validateTargetContainer(svc, sandbox.id, m.config);
  const runtime = resolveRuntimeHandler(svc.config, m.runtimeHandler);
  const cleanup = new CleanupStack(log);

  await cleanup.run(async () => {
    const ios = containerIOs(rt.containers);
    const io = ContainerIO.create(containerIOOptions(svc, container, false));
    ios.set(id, io);
    cleanup.push('close container io', () => {
      ios.delete(id);
      io.remove();
    });

    const replaced = await rt.hooks.preStartContainer?.(hookSandbox(sandbox), hookContainer(container), container.spec);
    const spec = (replaced ?? container.spec) as Spec;

    const task: CriTask = await rt.tasks.create({
      id,
      sandboxId: sandbox.id,
      spec,
      rootfs: await rt.snapshotter.mounts(m.snapshotKey),
      stdio: io.paths,
      runtime,
      deadlineMs,
    });
    cleanup.push('delete container task', async () => {
      await task.kill(9, true).catch(() => undefined);
      await task.delete();
    });
    io.releaseKeepers();
    crashPoint('container_start:after_task_create');

    // Taken before runc start, so it never comes after the exit time the shim reports.
    const startedAt = nowNanos();
    const pid = await task.start();
    crashPoint('container_start:before_persist_start');
    // No await between start and here: the exit watcher below cannot record an exit before the start.
    rt.containers.updateStatus(id, (s) => ({ ...s, pid, startedAt }));
    watchContainerExit(svc, id, task, io);
    log.info('container started', { pid });
  });

  rt.events.publish({ containerId: id, sandboxId: sandbox.id, type: 'CONTAINER_STARTED_EVENT', createdAt: nowNanos() });
  await rt.hooks.postStartContainer?.(hookSandbox(sandbox), hookContainer(container)).catch((err: unknown) => {
    log.warn('post-start hook failed', { error: messageOf(err) });
  });
}

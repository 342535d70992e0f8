// How a container stops: the exit watcher every started container gets, and StopContainer, which
// signals and then waits for that watcher to have recorded the exit (containerd's
// waitContainerStop on the container's Stopped channel).
import { constants } from 'node:os';
import type { StopContainerRequest__Output } from '../../api/gen/runtime/v1/StopContainerRequest';
import type { StopContainerResponse } from '../../api/gen/runtime/v1/StopContainerResponse';
import { invalidArgument, isNotFound, messageOf, wrap } from '../../errdefs/errors';
import { metrics } from '../../metrics';
import { containerIOs, type ContainerIO } from '../container_io';
import { containerState, type Container } from '../store/container';
import { nowNanos } from '../store/time';
import type { CriTask } from '../tasks/types';
import { hookContainer, hookSandbox } from './hook_views';
import type { CriService, RuntimeDeps } from './service';
import { recordContainerExit } from './task_monitor';
import { retryWithBackoff } from '../util/retry';
import { callSignal, unlessEnded, type CallEnd } from '../util/call_signal';
import { settledWithin } from '../util/settled';

const SIGKILL = 9;
const LINUX_SIGRTMIN = 34;
const LINUX_SIGRTMAX = 64;
/** containerd's unknownExitCode: what a container whose end nobody saw exited with. */
const UNKNOWN_EXIT_CODE = 255;
/**
 * After the init process exited, how long its output may take to drain into the log. Unbounded
 * would let a stray process holding the FIFO (host PID namespace) hold the exit record forever.
 */
const IO_DRAIN_GRACE_MS = 5_000;

/** "SIGTERM", "TERM", "15", "SIGRTMIN+3", "RTMAX-1" -> the Linux signal number. */
export function parseSignal(text: string): number {
  const raw = text.trim().toUpperCase();
  if (/^\d+$/.test(raw)) {
    const n = Number(raw);
    if (n >= 1 && n <= LINUX_SIGRTMAX) return n;
    throw invalidArgument(`signal ${JSON.stringify(text)} is out of range 1-${LINUX_SIGRTMAX}`);
  }
  const name = raw.startsWith('SIG') ? raw : `SIG${raw}`;
  const rt = /^SIGRT(MIN|MAX)(?:([+-])(\d+))?$/.exec(name);
  if (rt) {
    const base = rt[1] === 'MIN' ? LINUX_SIGRTMIN : LINUX_SIGRTMAX;
    const n = base + (rt[2] === '-' ? -1 : 1) * Number(rt[3] ?? 0);
    if (n >= LINUX_SIGRTMIN && n <= LINUX_SIGRTMAX) return n;
  } else {
    const n = (constants.signals as Record<string, number | undefined>)[name];
    if (n !== undefined) return n;
  }
  throw invalidArgument(`unknown signal ${JSON.stringify(text)}`);
}

const watches = new WeakMap<RuntimeDeps, Map<string, Promise<void>>>();

function exitWatches(rt: RuntimeDeps): Map<string, Promise<void>> {
  let map = watches.get(rt);
  if (!map) watches.set(rt, (map = new Map()));
  return map;
}

/** Resolves once the container's exit has been recorded; undefined when nothing watches it. */
export function containerExitRecorded(rt: RuntimeDeps, id: string): Promise<void> | undefined {
  return exitWatches(rt).get(id);
}

/**
 * When the task's init process exits: kill what is left of it (a shared PID namespace), let the
 * output drain into the log, delete the task in the shim (runc delete), close the IO and record the
 * exit (status, CONTAINER_STOPPED) — containerd's handleContainerExit, in its order, so the log is
 * complete by the time the status says EXITED.
 */
export function watchContainerExit(svc: CriService, id: string, task: CriTask, io: ContainerIO | undefined): void {
  const rt = svc.rt;
  const log = svc.logger.with({ containerId: id });
  // The shim reports an OOM kill as a TaskOOM event before the exit: remember it for the reason.
  let oomKilled = false;
  const unsubscribe = rt.taskEvents.subscribe({ containerId: id, kinds: ['TaskOOM'] }, () => (oomKilled = true));
  const handled = task.exited
    .then(async (exit) => {
      try {
        await task.kill(SIGKILL, true).catch(() => undefined);
        if (io) {
          const drained = await settledWithin(io.drained(), IO_DRAIN_GRACE_MS);
          if (!drained) log.warn('container output did not end after its exit; closing it', { graceMs: IO_DRAIN_GRACE_MS });
        }
        await task.delete().catch((err: unknown) => log.warn('deleting the exited task failed', { error: messageOf(err) }));
      } finally {
        // Whatever failed above, the FIFOs and the log file are closed and removed.
        if (io) {
          const ios = containerIOs(rt.containers);
          if (ios.get(id) === io) ios.delete(id);
          io.remove();
        }
      }
      // Retried until the database takes it (a full disk), as containerd retries the exit events it
      // failed to handle: else the container read RUNNING, and refused removal, until a restart.
      // StopContainer waits for this, as containerd's for its container's Stopped channel.
      await retryWithBackoff(log, 'recording the container exit', () => recordContainerExit(svc, id, exit, oomKilled));
    })
    // Never an unhandled rejection (it would end berthd): a failure here is logged.
    .catch((err: unknown) => log.error('container exit watcher failed', { error: messageOf(err) }))
    .finally(unsubscribe);
  const watchesOf = exitWatches(rt);
  const entry = handled.finally(() => {
    if (watchesOf.get(id) === entry) watchesOf.delete(id);
  });
  watchesOf.set(id, entry);
}

async function signalTask(task: CriTask, signal: number, all: boolean): Promise<void> {
  try {
    await task.kill(signal, all);
  } catch (err) {
    // "process already finished": the exit is on its way to the watcher.
    if (!isNotFound(err)) throw wrap(err, `signal ${signal} to container ${task.id}`);
  }
}

/** A container whose task nobody can reach: record it as exited with an unknown code. */
function recordUnknownExit(svc: CriService, container: Container): void {
  svc.rt.containers.updateStatus(container.id, (s) => ({
    ...s,
    pid: 0,
    finishedAt: nowNanos(),
    exitCode: UNKNOWN_EXIT_CODE,
    reason: 'Unknown',
    unknown: false,
  }));
  metrics().containerExit('Unknown');
  svc.rt.events.publish({ containerId: container.id, sandboxId: container.metadata.sandboxId, type: 'CONTAINER_STOPPED_EVENT', createdAt: nowNanos() });
}

/**
 * Stops a running container: its stop signal, `timeoutSec` seconds for it to exit, then SIGKILL to
 * every process of it. A container not running is left alone. Caller holds the container's lock.
 * The wait for the exit ends when `callEnded` aborts (a shim that cannot deliver it, e.g. behind a
 * hung `runc exec`, would hold the lock forever), as containerd's waitContainerStop ends with the
 * request's context: the exit watcher goes on, and the caller's retry finds it.
 */
export async function stopContainerLocked(svc: CriService, container: Container, timeoutSec: number, callEnded?: AbortSignal): Promise<void> {
  const rt = svc.rt;
  const { id } = container;
  const log = svc.logger.with({ containerId: id });
  const state = containerState(container.status);
  if (state !== 'CONTAINER_RUNNING' && state !== 'CONTAINER_UNKNOWN') return;

  const task = rt.tasks.get(id);
  let recorded = containerExitRecorded(rt, id);
  const exitOf = (p: Promise<void>) => unlessEnded(p, callEnded, `waiting for container ${id} to exit`);
  if (!task) {
    if (recorded) return exitOf(recorded);
    if (state === 'CONTAINER_UNKNOWN') recordUnknownExit(svc, container);
    else log.warn('running container has no task; nothing to stop');
    return;
  }
  if (!recorded) {
    watchContainerExit(svc, id, task, containerIOs(rt.containers).get(id));
    recorded = containerExitRecorded(rt, id)!;
  }

  if (timeoutSec > 0) {
    let signal = 15;
    try {
      signal = parseSignal(container.metadata.stopSignal || 'SIGTERM');
    } catch (err) {
      log.warn('bad stop signal; using SIGTERM', { stopSignal: container.metadata.stopSignal, error: messageOf(err) });
    }
    log.info('stopping container', { signal, timeoutSec });
    await signalTask(task, signal, false);
    // Settled: exited, or the caller left (then exitOf throws again, as nothing was stopped).
    if (await settledWithin(exitOf(recorded), timeoutSec * 1000)) return exitOf(recorded);
    log.info('container did not stop in time; killing it', { timeoutSec });
  }
  await signalTask(task, SIGKILL, true);
  await exitOf(recorded);
}

/** StopContainer is idempotent: an ID nobody knows (removed already) answers OK, as newer CRI semantics (and critest) want. */
export function stopContainer(svc: CriService, req: StopContainerRequest__Output, call: CallEnd): Promise<StopContainerResponse> {
  return stopContainerUntil(svc, req, callSignal(call));
}

/** StopContainer, its waits ending when `callEnded` aborts. */
export async function stopContainerUntil(svc: CriService, req: StopContainerRequest__Output, callEnded?: AbortSignal): Promise<StopContainerResponse> {
  const rt = svc.rt;
  const container = rt.containers.find(req.container_id);
  if (!container) return {};
  const timeoutSec = Math.max(0, Number(req.timeout) || 0);
  await rt.locks.run(container.id, () => stopContainerLocked(svc, container, timeoutSec, callEnded));
  const sandbox = rt.sandboxes.tryGet(container.metadata.sandboxId);
  if (sandbox) {
    await rt.hooks.stopContainer?.(hookSandbox(sandbox), hookContainer(container)).catch((err: unknown) => {
      svc.logger.warn('stop hook failed', { containerId: container.id, error: messageOf(err) });
    });
  }
  return {};
}

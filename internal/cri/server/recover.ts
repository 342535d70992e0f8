// Recovery at start (containerd's recover.go): berthd may have been killed at any instant. Reload
// the stores (done by the wiring), reconnect every task to its shim (pods in parallel, a bounded
// number at once), learn exits that happened meanwhile, finish or undo half-done work, and sweep
// whatever no record owns.
import { existsSync } from 'node:fs';
import { isNotFound, messageOf } from '../../errdefs/errors';
import { NetNS } from '../../netns/netns';
import type { Spec } from '../../oci/spec';
import type { Container } from '../store/container';
import { containerState } from '../store/container';
import type { Sandbox } from '../store/sandbox';
import { isSet, nowNanos } from '../store/time';
import { resolveRuntimeHandler, type ResolvedRuntime } from '../runtime_handler';
import { sandboxShmPath, unmountSandboxShm } from '../sandbox_files';
import { podNetworkRequest } from './sandbox_run';
import type { CriService } from './service';
import { monitorSandboxExit } from './task_monitor';
import type { CriTask } from '../tasks/types';
import { containerExitRecorded } from './container_stop';
import { removeTree } from '../../fs/remove_tree';
import { forEachBounded } from '../util/bounded';
import { sweep, warnSwept } from './recover_sweep';

/**
 * Pods reconnected at once. Each pod's sandbox and containers go together (they share a shim
 * connection); pods overlap, so one slow shim does not hold up the rest, while 110 pods do not
 * open 110 shim connections, logs and FIFOs in one burst that the node's few cores then answer.
 */
export const RECOVERY_CONCURRENCY = 16;

export interface RecoveryReport {
  sandboxes: number;
  containers: number;
  undoneSandboxes: string[];
  lostContainers: string[];
  swept: string[];
}

/**
 * Reattaches a running container's output and watches its exit with watchContainerExit (the
 * container verbs provide it); recovery awaits that watch for a task found already exited.
 */
export type ReattachContainer = (svc: CriService, container: Container, task: CriTask) => void;

function runtimeOf(svc: CriService, handler: string): ResolvedRuntime {
  try {
    return resolveRuntimeHandler(svc.config, handler);
  } catch {
    // The handler was removed from the config since: the default runtime still knows how to clean up.
    return resolveRuntimeHandler(svc.config, '');
  }
}

async function ignoreNotFound(p: Promise<unknown>): Promise<void> {
  try {
    await p;
  } catch (err) {
    if (!isNotFound(err)) throw err;
  }
}

/** Undoes a RunPodSandbox that never reached Ready (its record was persisted as intent). */
async function undoSandbox(svc: CriService, sandbox: Sandbox): Promise<void> {
  const rt = svc.rt;
  const m = sandbox.metadata;
  await rt.tasks.cleanupDead(sandbox.id, runtimeOf(svc, m.runtimeHandler));
  unmountSandboxShm(sandboxShmPath(m.stateDir));
  if (m.netnsPath !== '') {
    // Its ADD may still run, orphaned: ended first, or it would attach what the DEL just removed.
    await rt.cni.endLeftoverPlugins(sandbox.id);
    await rt.cni.teardownPodNetwork(podNetworkRequest(sandbox.id, m.netnsPath, m.config));
    if (existsSync(m.netnsPath)) NetNS.load(m.netnsPath).remove();
  }
  await ignoreNotFound(rt.snapshotter.remove(m.snapshotKey));
  await Promise.all([removeTree(m.stateDir), removeTree(m.rootDir)]);
  rt.sandboxes.delete(sandbox.id);
  rt.sandboxNames.releaseByKey(sandbox.id);
}

async function recoverSandbox(svc: CriService, sandbox: Sandbox, report: RecoveryReport): Promise<void> {
  if (sandbox.status.state === 'unknown') {
    await undoSandbox(svc, sandbox);
    report.undoneSandboxes.push(sandbox.id);
    return;
  }
  const task = await svc.rt.tasks.reconnect(sandbox.id, runtimeOf(svc, sandbox.metadata.runtimeHandler), sandbox.metadata.runtimeSpec as Spec | undefined);
  if (task) {
    const recorded = monitorSandboxExit(svc, sandbox.id, task);
    // containerd's loadSandbox: a pause that died while berthd was down is NotReady before serving.
    if (task.exitedBeforeReconnect) await recorded;
  } else if (sandbox.status.state === 'ready') {
    svc.rt.sandboxes.updateStatus(sandbox.id, (s) => ({ ...s, state: 'notready', pid: 0, exitStatus: 255, exitedAt: nowNanos() }));
  }
}

async function removeContainerLeftovers(svc: CriService, c: Container): Promise<void> {
  const rt = svc.rt;
  await rt.tasks.cleanupDead(c.id, runtimeOf(svc, c.metadata.runtimeHandler));
  await ignoreNotFound(rt.snapshotter.remove(c.metadata.snapshotKey));
  // Through the trash, as RemoveContainer: its root dir holds the image volumes, which the container
  // may have filled with a million files.
  rt.trash.root.discard(c.metadata.rootDir);
  rt.trash.state.discard(c.metadata.stateDir);
  rt.containers.delete(c.id);
  rt.containerNames.releaseByKey(c.id);
}

async function recoverContainer(svc: CriService, c: Container, report: RecoveryReport, reattach: ReattachContainer): Promise<void> {
  const rt = svc.rt;
  if (!rt.sandboxes.tryGet(c.metadata.sandboxId)) {
    // Its pod was removed (or undone) but the container record outlived it.
    await removeContainerLeftovers(svc, c);
    return;
  }
  const runtime = runtimeOf(svc, c.metadata.runtimeHandler);
  const state = containerState(c.status);
  const markExited = (exitCode: number, reason: string, message: string) => {
    rt.containers.updateStatus(c.id, (s) => ({
      ...s,
      pid: 0,
      startedAt: isSet(s.startedAt) ? s.startedAt : nowNanos(),
      finishedAt: nowNanos(),
      exitCode,
      reason,
      message,
    }));
    report.lostContainers.push(c.id);
  };
  if (state === 'CONTAINER_RUNNING') {
    const task = await rt.tasks.reconnect(c.id, runtime, c.spec as Spec);
    if (!task) {
      markExited(255, 'Unknown', 'the container task was gone when berthd restarted');
      return;
    }
    // containerd's loadContainer: a task that exited while berthd was down is finished before
    // serving (output drained, task deleted, real exit recorded), so no caller ever reads RUNNING.
    reattach(svc, c, task);
    if (task.exitedBeforeReconnect) await containerExitRecorded(rt, c.id);
    return;
  }
  if (state === 'CONTAINER_CREATED' && rt.tasks.bundlesOnDisk().includes(c.id)) {
    // StartContainer was interrupted after the task was created: never leave a task nobody owns.
    await rt.tasks.cleanupDead(c.id, runtime);
    markExited(128, 'StartError', 'berthd stopped while starting the container');
    return;
  }
  if (state === 'CONTAINER_EXITED' && rt.tasks.bundlesOnDisk().includes(c.id)) {
    await rt.tasks.cleanupDead(c.id, runtime);
  }
}

export async function recover(svc: CriService, reattach: ReattachContainer): Promise<RecoveryReport> {
  const rt = svc.rt;
  const report: RecoveryReport = {
    sandboxes: rt.sandboxes.list().length,
    containers: rt.containers.list().length,
    undoneSandboxes: [],
    lostContainers: [],
    swept: [],
  };
  const settle = async (what: string, id: string, p: Promise<void>) => {
    try {
      await p;
    } catch (err) {
      svc.logger.error(`recovering ${what} failed`, { id, error: messageOf(err) });
    }
  };
  const byPod = new Map<string, Container[]>(rt.sandboxes.list().map((s) => [s.id, []]));
  const podless: Container[] = [];
  for (const c of rt.containers.list()) (byPod.get(c.metadata.sandboxId) ?? podless).push(c);
  const recoverOne = (c: Container) => settle('container', c.id, recoverContainer(svc, c, report, reattach));
  await forEachBounded(rt.sandboxes.list(), RECOVERY_CONCURRENCY, async (s) => {
    const containers = byPod.get(s.id)!;
    if (s.status.state === 'unknown') {
      // Undone first: its containers then find no pod and are removed with it.
      await settle('sandbox', s.id, recoverSandbox(svc, s, report));
      await Promise.all(containers.map(recoverOne));
      return;
    }
    // A kept pod and its containers together: their State and Wait requests to the pod's shim go
    // out in one write on the shared connection, and come back together.
    await Promise.all([settle('sandbox', s.id, recoverSandbox(svc, s, report)), ...containers.map(recoverOne)]);
  });
  await forEachBounded(podless, RECOVERY_CONCURRENCY, recoverOne);
  const swept = await sweep(svc, report, RECOVERY_CONCURRENCY);
  svc.logger.info('recovered state', { ...report });
  warnSwept(svc, swept);
  return report;
}

// StopPodSandbox: stop every container of the pod, kill the pause task, unmount /dev/shm, tear
// the pod network down and remove its namespace. Idempotent: each part checks what is left, so a
// retry (or a call after a crash halfway) finishes the job.
import { existsSync } from 'node:fs';
import type { StopPodSandboxRequest__Output } from '../../api/gen/runtime/v1/StopPodSandboxRequest';
import type { StopPodSandboxResponse } from '../../api/gen/runtime/v1/StopPodSandboxResponse';
import { failedPrecondition, isNotFound, messageOf, wrap } from '../../errdefs/errors';
import { NetNS } from '../../netns/netns';
import { sandboxShmPath, unmountSandboxShm } from '../sandbox_files';
import type { Sandbox } from '../store/sandbox';
import { nowNanos } from '../store/time';
import { containerState } from '../store/container';
import { stopContainerUntil } from './container_stop';
import { hookSandbox } from './hook_views';
import { podNetworkRequest } from './sandbox_run';
import type { CriService } from './service';
import { recordSandboxExit } from './task_monitor';
import { callSignal, unlessEnded, type CallEnd } from '../util/call_signal';
import { crashPoint } from '../util/crash_points';

const SIGKILL = 9;

function assertCanDetach(rt: CriService['rt'], id: string): void {
  try {
    rt.cni.assertReady();
  } catch (err) {
    throw failedPrecondition(`cannot detach the network of pod ${id}: no result of its CNI ADD is cached and ${messageOf(err)}`, err);
  }
}

/** Idempotent: an unknown (already removed) pod answers OK, as newer CRI semantics (and critest) want. */
export async function stopPodSandbox(svc: CriService, req: StopPodSandboxRequest__Output, call: CallEnd): Promise<StopPodSandboxResponse> {
  const sandbox = svc.rt.sandboxes.find(req.pod_sandbox_id);
  if (!sandbox) return {};
  await stopSandbox(svc, sandbox, callSignal(call));
  return {};
}

/** Stops the pod; waits for exits end when `callEnded` aborts (a retry finishes the job). */
export async function stopSandbox(svc: CriService, sandbox: Sandbox, callEnded?: AbortSignal): Promise<void> {
  const rt = svc.rt;
  const log = svc.logger.with({ podSandboxId: sandbox.id });
  // No start begins from here on; one already under way holds its container's lock, which the stop
  // below waits for, and then finds the container running. (containerd 1.6 leaves this window open.)
  sandbox.stopping = true;
  // Containers first (containerd stops them with no grace period: kubelet already gave each one its own).
  for (const c of rt.containers.listBySandbox(sandbox.id)) {
    if (containerState(c.status) === 'CONTAINER_RUNNING' || c.starting) {
      await stopContainerUntil(svc, { container_id: c.id, timeout: '0' }, callEnded);
    }
  }

  crashPoint('sandbox_stop:after_containers');

  await rt.locks.run(sandbox.id, async () => {
    const task = rt.tasks.get(sandbox.id);
    if (task) {
      // As containerd's stopSandboxContainer: only "already finished" lets the stop wait for the
      // exit; any other failure (runc cannot kill it) is the caller's answer, not a wait to its deadline.
      await task.kill(SIGKILL, true).catch((err: unknown) => {
        if (!isNotFound(err)) throw wrap(err, `failed to kill the pause of pod ${sandbox.id}`);
      });
      const exit = await unlessEnded(task.exited, callEnded, `waiting for the pause of pod ${sandbox.id} to exit`);
      recordSandboxExit(svc, sandbox.id, exit);
      await task.delete();
    } else if (sandbox.status.state !== 'notready') {
      rt.sandboxes.updateStatus(sandbox.id, (s) => ({ ...s, state: 'notready', pid: 0, exitedAt: s.exitedAt === '0' ? nowNanos() : s.exitedAt }));
    }

    unmountSandboxShm(sandboxShmPath(sandbox.metadata.stateDir));

    const { netnsPath, config } = sandbox.metadata;
    // The netns file goes only after a successful teardown, so while it exists the network may
    // still be attached. A netns file someone else removed leaves the ADD's cached result, so the
    // DEL still runs (with no netns, as containerd's for a closed one) and the pod's IP goes back.
    // Once both are gone, a repeated stop (RemovePodSandbox stops first) skips the plugin chain.
    const netnsLeft = netnsPath !== '' && existsSync(netnsPath);
    const cached = netnsPath !== '' && rt.cni.attachedToPod(sandbox.id);
    if (netnsLeft || cached) {
      // Neither a cached result nor a config says what to detach (both removed behind berthd's back):
      // fail, as containerd's "cni plugin not initialized", so a retry runs the DEL once a config is
      // back, instead of detaching loopback only and the pod's IP staying allocated for good.
      if (!cached) assertCanDetach(rt, sandbox.id);
      await rt.cni.teardownPodNetwork(podNetworkRequest(sandbox.id, netnsPath, config));
      if (netnsLeft) NetNS.load(netnsPath).remove();
    }
    await rt.hooks.stopPodSandbox?.(hookSandbox(sandbox));
    log.info('pod sandbox stopped');
  });
}

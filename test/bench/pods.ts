// The CRI client code every scenario shares, identical for both peers: a pod config, a busybox
// container that exits on SIGTERM, bring-up (RunPodSandbox, CreateContainer, StartContainer) and
// tear-down (StopContainer, RemoveContainer, StopPodSandbox, RemovePodSandbox), each call timed.
import { randomUUID } from 'node:crypto';
import type { ContainerConfig } from '../../internal/api/gen/runtime/v1/ContainerConfig';
import type { PodSandboxConfig } from '../../internal/api/gen/runtime/v1/PodSandboxConfig';
import { BUSYBOX_IMAGE } from '../harness/images';
import { Aborted, RpcFailed } from './errors';
import { netnsPathFromInfo, type NetnsLedger } from './netns';
import type { Peer } from './peers/peer';
import { msSince } from './stats';

export const LIFECYCLE_RPCS = [
  'RunPodSandbox',
  'CreateContainer',
  'StartContainer',
  'StopContainer',
  'RemoveContainer',
  'StopPodSandbox',
  'RemovePodSandbox',
] as const;
export type LifecycleRpc = (typeof LIFECYCLE_RPCS)[number];

/** ms per call, keyed by RPC name. */
export type RpcTimings = Partial<Record<LifecycleRpc, number>>;

const RPC_DEADLINE_MS = 120_000;
const STOP_TIMEOUT_SECONDS = '10';
const opts = () => ({ deadline: Date.now() + RPC_DEADLINE_MS });

/** PID 1 of a container ignores SIGTERM unless it handles it: this one exits 0 on TERM. */
export const SLEEPER_COMMAND = ['sh', '-c', 'trap "exit 0" TERM; sleep 3600 & wait'];

export interface BenchContext {
  /** Unique per bench run, part of every pod name. */
  runId: string;
  netns: NetnsLedger;
  /** True after SIGINT: start no new work. */
  aborted(): boolean;
}

export interface PodRef {
  podId: string;
  containerId?: string;
  config: PodSandboxConfig;
}

export function podConfig(peer: Peer, name: string): PodSandboxConfig {
  return {
    metadata: { name, uid: randomUUID(), namespace: 'berth-bench', attempt: 0 },
    hostname: name.slice(0, 63),
    log_directory: `${peer.podLogDir}/${name}`,
    linux: {
      cgroup_parent: peer.cgroupParent,
      security_context: { namespace_options: { network: 'POD', pid: 'CONTAINER', ipc: 'POD' } },
    },
  };
}

export function sleeperConfig(): ContainerConfig {
  return {
    metadata: { name: 'sleeper', attempt: 0 },
    image: { image: BUSYBOX_IMAGE },
    command: SLEEPER_COMMAND,
    log_path: 'sleeper.log',
    linux: {},
  };
}

async function time<T>(timings: RpcTimings, rpc: LifecycleRpc, call: () => Promise<T>): Promise<T> {
  const start = process.hrtime.bigint();
  let value: T;
  try {
    value = await call();
  } catch (err) {
    throw new RpcFailed(rpc, err);
  }
  timings[rpc] = msSince(start);
  return value;
}

/** Records the pod's netns path (untimed) so a leftover can be swept even if the daemon forgets it. */
async function recordNetns(peer: Peer, podId: string, ctx: BenchContext): Promise<void> {
  try {
    const status = await peer.cri.runtime.PodSandboxStatus({ pod_sandbox_id: podId, verbose: true }, opts());
    ctx.netns.record(netnsPathFromInfo(status.info));
  } catch {
    // verbose status is a convenience for the sweep, not part of the figures
  }
}

/**
 * RunPodSandbox + CreateContainer + StartContainer. On failure, removes what it made (the pod)
 * and rethrows. `timings` receives each call's latency.
 */
export async function startPod(peer: Peer, name: string, ctx: BenchContext, timings: RpcTimings = {}): Promise<PodRef> {
  if (ctx.aborted()) throw new Aborted();
  const config = podConfig(peer, name);
  const { pod_sandbox_id: podId } = await time(timings, 'RunPodSandbox', () =>
    peer.cri.runtime.RunPodSandbox({ config }, opts()),
  );
  const pod: PodRef = { podId, config };
  try {
    await recordNetns(peer, podId, ctx);
    if (ctx.aborted()) throw new Aborted();
    const { container_id } = await time(timings, 'CreateContainer', () =>
      peer.cri.runtime.CreateContainer({ pod_sandbox_id: podId, config: sleeperConfig(), sandbox_config: config }, opts()),
    );
    pod.containerId = container_id;
    await time(timings, 'StartContainer', () => peer.cri.runtime.StartContainer({ container_id }, opts()));
    return pod;
  } catch (err) {
    await removePod(peer, pod).catch(() => undefined);
    throw err;
  }
}

/** StopContainer (graceful, 10 s) + RemoveContainer + StopPodSandbox + RemovePodSandbox. */
export async function removePod(peer: Peer, pod: PodRef, timings: RpcTimings = {}): Promise<void> {
  const containerId = pod.containerId;
  if (containerId !== undefined) {
    await time(timings, 'StopContainer', () =>
      peer.cri.runtime.StopContainer({ container_id: containerId, timeout: STOP_TIMEOUT_SECONDS }, opts()),
    );
    await time(timings, 'RemoveContainer', () => peer.cri.runtime.RemoveContainer({ container_id: containerId }, opts()));
  }
  await time(timings, 'StopPodSandbox', () => peer.cri.runtime.StopPodSandbox({ pod_sandbox_id: pod.podId }, opts()));
  await time(timings, 'RemovePodSandbox', () => peer.cri.runtime.RemovePodSandbox({ pod_sandbox_id: pod.podId }, opts()));
}

/** Removes pods concurrently-safe (one by one), collecting failures instead of stopping at the first. */
export async function removePods(peer: Peer, pods: readonly PodRef[]): Promise<string[]> {
  const failures: string[] = [];
  for (const pod of [...pods].reverse()) {
    try {
      await removePod(peer, pod);
    } catch (err) {
      failures.push(`${pod.podId}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  return failures;
}

// stats: issue 9, "cheap enough for kubelet to call every 10 s on 100 containers". Each peer gets
// 10 pods x 10 running busybox sleepers; then 20 rounds, alternating which peer goes first, of
// ListContainerStats({}) and ListPodSandboxStats({}) on each; latency p50 and p99. Every
// ListContainerStats must list all 100 containers, or the peer's figure is an error.
import type { ContainerConfig } from '../../../internal/api/gen/runtime/v1/ContainerConfig';
import { Aborted, RpcFailed } from '../errors';
import { removePod, sleeperConfig, startPod, type PodRef } from '../pods';
import type { Peer, PeerName } from '../peers/peer';
import type { Row } from '../report';
import { msSince, p50, p99 } from '../stats';
import { alternating, PeerSeries, type Scenario, type ScenarioEnv } from './scenario';

export const STATS_PODS = 10;
export const CONTAINERS_PER_POD = 10;
export const STATS_CALLS = 20;
const EXPECTED_CONTAINERS = STATS_PODS * CONTAINERS_PER_POD;

const RPC_DEADLINE_MS = 120_000;
const STOP_TIMEOUT_SECONDS = '10';
const opts = () => ({ deadline: Date.now() + RPC_DEADLINE_MS });

const STATS_RPCS = ['ListContainerStats', 'ListPodSandboxStats'] as const;
type StatsRpc = (typeof STATS_RPCS)[number];

/** A pod of this scenario and its containers, in creation order (removal goes in reverse). */
interface StatsPod {
  pod: PodRef;
  containerIds: string[];
}

/** ListContainerStats answered, but not with every container the bench started. */
class WrongCount extends Error {
  constructor(peer: PeerName, got: number) {
    super(`ListContainerStats on ${peer}: ${got} entries, want ${EXPECTED_CONTAINERS}`);
    this.name = 'WrongCount';
  }
}

function extraSleeper(k: number): ContainerConfig {
  return { ...sleeperConfig(), metadata: { name: `sleeper-${k}`, attempt: 0 }, log_path: `sleeper-${k}.log` };
}

async function rpc<T>(name: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    throw new RpcFailed(name, err);
  }
}

/** One pod: sandbox + first sleeper via startPod, then the other sleepers, each id recorded as soon as it exists. */
async function fillPod(env: ScenarioEnv, peer: Peer, index: number, pods: StatsPod[]): Promise<void> {
  const pod = await startPod(peer, `st-${env.ctx.runId}-${index}`, env.ctx);
  const entry: StatsPod = { pod, containerIds: [pod.containerId!] };
  pods.push(entry);
  for (let k = 1; k < CONTAINERS_PER_POD; k++) {
    if (env.ctx.aborted()) throw new Aborted();
    const { container_id } = await rpc('CreateContainer', () =>
      peer.cri.runtime.CreateContainer(
        { pod_sandbox_id: pod.podId, config: extraSleeper(k), sandbox_config: pod.config },
        opts(),
      ),
    );
    entry.containerIds.push(container_id);
    await rpc('StartContainer', () => peer.cri.runtime.StartContainer({ container_id }, opts()));
  }
}

/** Stops and removes the pod's containers (newest first), then the pod; failures are collected. */
async function emptyPod(peer: Peer, { pod, containerIds }: StatsPod): Promise<string[]> {
  const failures: string[] = [];
  for (const id of [...containerIds].reverse()) {
    try {
      await rpc('StopContainer', () => peer.cri.runtime.StopContainer({ container_id: id, timeout: STOP_TIMEOUT_SECONDS }, opts()));
      await rpc('RemoveContainer', () => peer.cri.runtime.RemoveContainer({ container_id: id }, opts()));
    } catch (err) {
      failures.push(`${id}: ${(err as Error).message}`);
    }
  }
  try {
    await removePod(peer, { podId: pod.podId, config: pod.config });
  } catch (err) {
    failures.push(`${pod.podId}: ${(err as Error).message}`);
  }
  return failures;
}

/**
 * Starts the peer's pods (concurrently, containers one by one inside each pod). Their removal is on
 * the cleanup stack before the first one is created; the returned function runs it early.
 */
async function populate(env: ScenarioEnv, peer: Peer): Promise<() => Promise<void>> {
  const pods: StatsPod[] = [];
  const undo = env.cleanup.push(`${peer.name} stats pods`, async () => {
    const results = await Promise.all(pods.map((p) => emptyPod(peer, p)));
    const left = results.flat();
    if (left.length > 0) throw new Error(left.join('; '));
  });
  const results = await Promise.allSettled(
    Array.from({ length: STATS_PODS }, (_, index) => fillPod(env, peer, index, pods)),
  );
  const failure = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failure) {
    await undo();
    throw failure.reason;
  }
  return undo;
}

/** One timed call of `name` on `peer`; ListContainerStats must list every container. */
async function timeCall(peer: Peer, name: StatsRpc): Promise<number> {
  const start = process.hrtime.bigint();
  if (name === 'ListContainerStats') {
    const { stats } = await rpc(name, () => peer.cri.runtime.ListContainerStats({}, opts()));
    const ms = msSince(start);
    if (stats.length !== EXPECTED_CONTAINERS) throw new WrongCount(peer.name, stats.length);
    return ms;
  }
  await rpc(name, () => peer.cri.runtime.ListPodSandboxStats({}, opts()));
  return msSince(start);
}

async function run(env: ScenarioEnv): Promise<Row[]> {
  // One series per RPC, so a peer that lacks one (UNIMPLEMENTED) still shows the other.
  const series: Record<StatsRpc, PeerSeries> = {
    ListContainerStats: new PeerSeries(env),
    ListPodSandboxStats: new PeerSeries(env),
  };
  const ready: Peer[] = [];
  const undos: Array<{ peer: Peer; undo: () => Promise<void> }> = [];
  try {
    for (const peer of env.peers) {
      if (env.ctx.aborted()) throw new Aborted();
      try {
        undos.push({ peer, undo: await populate(env, peer) });
        ready.push(peer);
        env.log(`stats: ${peer.name} running ${EXPECTED_CONTAINERS} containers in ${STATS_PODS} pods`);
      } catch (err) {
        if (err instanceof Aborted) throw err;
        for (const rpcName of STATS_RPCS) series[rpcName].fail(peer.name, err);
        env.log(`stats: ${peer.name} could not start its pods: ${(err as Error).message}`);
      }
    }
    for (let i = 0; i < STATS_CALLS; i++) {
      for (const peer of alternating(ready, i)) {
        for (const rpcName of STATS_RPCS) {
          if (env.ctx.aborted()) throw new Aborted();
          if (series[rpcName].failed(peer.name)) continue;
          try {
            series[rpcName].add(peer.name, rpcName, await timeCall(peer, rpcName));
          } catch (err) {
            series[rpcName].fail(peer.name, err);
            env.log(`stats: ${peer.name} ${rpcName} failed at call ${i}: ${(err as Error).message}`);
          }
        }
      }
    }
  } finally {
    // Newest peer first. A peer whose pods did not all go away shows an error in its figures, so
    // the run fails instead of leaving them unnoticed.
    for (const { peer, undo } of undos.reverse()) {
      try {
        await undo();
      } catch (err) {
        for (const rpcName of STATS_RPCS) series[rpcName].fail(peer.name, new Error(`removal: ${(err as Error).message}`));
        env.log(`stats: ${peer.name} removal failed: ${(err as Error).message}`);
      }
    }
  }
  const label = `${EXPECTED_CONTAINERS} containers`;
  return STATS_RPCS.flatMap((rpcName) => [
    series[rpcName].row('stats', `${rpcName} p50 (${label})`, 'ms', rpcName, p50),
    series[rpcName].row('stats', `${rpcName} p99 (${label})`, 'ms', rpcName, p99),
  ]);
}

export const stats: Scenario = { name: 'stats', run };

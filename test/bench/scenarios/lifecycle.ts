// lifecycle: N iterations, alternating the peers, of one pod's whole life through CRI:
// RunPodSandbox, CreateContainer, StartContainer, StopContainer (graceful), RemoveContainer,
// StopPodSandbox, RemovePodSandbox; latency of each call, p50 and p99.
import { Aborted } from '../errors';
import { LIFECYCLE_RPCS, removePod, startPod, type RpcTimings } from '../pods';
import type { Row } from '../report';
import { p50, p99 } from '../stats';
import { alternating, PeerSeries, type Scenario, type ScenarioEnv } from './scenario';

/**
 * Pod lives per --iterations and peer. A p99 by nearest rank of fewer than 100 samples is the
 * slowest one: of 30 lives, RemoveContainer's p99 ratio moved between 1.05x and 1.21x over three
 * runs of one build whose p50 ratio stayed at 0.77-0.84x: each the one slowest call of either side,
 * and both daemons have a few 6-9 ms calls among their 3-4 ms ones. Of 120 it is the second slowest
 * (~2 more minutes per run).
 */
export const LIVES_PER_ITERATION = 4;

async function run(env: ScenarioEnv): Promise<Row[]> {
  const series = new PeerSeries(env);
  const lives = env.iterations * LIVES_PER_ITERATION;
  for (let i = 0; i < lives; i++) {
    for (const peer of alternating(env.peers, i)) {
      if (env.ctx.aborted()) throw new Aborted();
      if (series.failed(peer.name)) continue;
      const timings: RpcTimings = {};
      try {
        const pod = await startPod(peer, `lc-${env.ctx.runId}-${i}`, env.ctx, timings);
        await removePod(peer, pod, timings);
      } catch (err) {
        if (err instanceof Aborted) throw err;
        series.fail(peer.name, err);
        env.log(`lifecycle: ${peer.name} stopped at iteration ${i}: ${(err as Error).message}`);
        continue;
      }
      for (const rpc of LIFECYCLE_RPCS) series.add(peer.name, rpc, timings[rpc]!);
    }
    if ((i + 1) % 20 === 0) env.log(`lifecycle: ${i + 1}/${lives}`);
  }
  return LIFECYCLE_RPCS.flatMap((rpc) => [
    series.row('lifecycle', `${rpc} p50`, 'ms', rpc, p50),
    series.row('lifecycle', `${rpc} p99`, 'ms', rpc, p99),
  ]);
}

export const lifecycle: Scenario = { name: 'lifecycle', run };

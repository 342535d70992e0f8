// lifecycle: N iterations, alternating the peers, of one pod's whole life through CRI:
// RunPodSandbox, CreateContainer, StartContainer, StopContainer (graceful), RemoveContainer,
// StopPodSandbox, RemovePodSandbox; latency of each call, p50 and p99.
import { Aborted } from '../errors';
import { LIFECYCLE_RPCS, removePod, startPod, type RpcTimings } from '../pods';
import type { Row } from '../report';
import { p50, p99 } from '../stats';
import { alternating, PeerSeries, type Scenario, type ScenarioEnv } from './scenario';

async function run(env: ScenarioEnv): Promise<Row[]> {
  const series = new PeerSeries(env);
  for (let i = 0; i < env.iterations; i++) {
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
    if ((i + 1) % 10 === 0) env.log(`lifecycle: ${i + 1}/${env.iterations}`);
  }
  return LIFECYCLE_RPCS.flatMap((rpc) => [
    series.row('lifecycle', `${rpc} p50`, 'ms', rpc, p50),
    series.row('lifecycle', `${rpc} p99`, 'ms', rpc, p99),
  ]);
}

export const lifecycle: Scenario = { name: 'lifecycle', run };

// concurrency: 10 pods started at once (RunPodSandbox + CreateContainer + StartContainer each),
// wall time until every one is running, and pods per second; `rounds` rounds, peers alternating.
import { Aborted } from '../errors';
import { removePods, startPod, type PodRef } from '../pods';
import type { Peer } from '../peers/peer';
import type { Row } from '../report';
import { msSince, p50 } from '../stats';
import { alternating, PeerSeries, type Scenario, type ScenarioEnv } from './scenario';

export const CONCURRENT_PODS = 10;

/** Starts the pods together; all-or-nothing: on any failure, removes the ones that started. */
async function burst(env: ScenarioEnv, peer: Peer, round: number): Promise<number> {
  const start = process.hrtime.bigint();
  const results = await Promise.allSettled(
    Array.from({ length: CONCURRENT_PODS }, (_, k) => startPod(peer, `cc-${env.ctx.runId}-${round}-${k}`, env.ctx)),
  );
  const wall = msSince(start);
  const started = results.filter((r): r is PromiseFulfilledResult<PodRef> => r.status === 'fulfilled').map((r) => r.value);
  const undo = env.cleanup.push(`${peer.name} concurrency pods`, async () => {
    const left = await removePods(peer, started);
    if (left.length > 0) throw new Error(left.join('; '));
  });
  await undo();
  const failure = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failure) throw failure.reason;
  return wall;
}

async function run(env: ScenarioEnv): Promise<Row[]> {
  const series = new PeerSeries(env);
  for (let round = 0; round < env.rounds; round++) {
    for (const peer of alternating(env.peers, round)) {
      if (env.ctx.aborted()) throw new Aborted();
      if (series.failed(peer.name)) continue;
      try {
        const wall = await burst(env, peer, round);
        series.add(peer.name, 'wall', wall);
        series.add(peer.name, 'rate', (CONCURRENT_PODS * 1000) / wall);
      } catch (err) {
        if (err instanceof Aborted) throw err;
        series.fail(peer.name, err);
        env.log(`concurrency: ${peer.name} failed in round ${round}: ${(err as Error).message}`);
      }
    }
  }
  return [
    series.row('concurrency', `${CONCURRENT_PODS} pods running, wall (p50)`, 'ms', 'wall', p50),
    series.row('concurrency', 'pods/second (p50)', 'pods/s', 'rate', p50),
  ];
}

export const concurrency: Scenario = { name: 'concurrency', run };

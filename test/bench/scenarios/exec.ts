// exec: what a kubelet exec probe costs. One running container per peer, then N ExecSync `true`
// calls, alternating the peers; latency p50 and p99 (steady state: the first call is not counted).
import { Aborted } from '../errors';
import { removePod, startPod, type PodRef } from '../pods';
import type { Peer } from '../peers/peer';
import type { Row } from '../report';
import { p50, p99, timed } from '../stats';
import { alternating, PeerSeries, type Scenario, type ScenarioEnv } from './scenario';

const RPC_DEADLINE_MS = 30_000;

async function execTrue(peer: Peer, pod: PodRef): Promise<number> {
  const { value: res, ms } = await timed(() =>
    peer.cri.runtime.ExecSync({ container_id: pod.containerId!, cmd: ['true'], timeout: '10' }, { deadline: Date.now() + RPC_DEADLINE_MS }),
  );
  if (res.exit_code !== 0) throw new Error(`ExecSync true in ${pod.containerId}: exit code ${res.exit_code}`);
  return ms;
}

async function run(env: ScenarioEnv): Promise<Row[]> {
  const series = new PeerSeries(env);
  const pods = new Map<string, PodRef>();
  try {
    for (const peer of env.peers) {
      try {
        const pod = await startPod(peer, `ex-${env.ctx.runId}`, env.ctx);
        pods.set(peer.name, pod);
        await execTrue(peer, pod); // warm-up, not counted
      } catch (err) {
        if (err instanceof Aborted) throw err;
        series.fail(peer.name, err);
      }
    }
    for (let i = 0; i < env.iterations; i++) {
      for (const peer of alternating(env.peers, i)) {
        if (env.ctx.aborted()) throw new Aborted();
        const pod = pods.get(peer.name);
        if (!pod || series.failed(peer.name)) continue;
        await execTrue(peer, pod).then(
          (ms) => series.add(peer.name, 'ExecSync', ms),
          (err: unknown) => series.fail(peer.name, err),
        );
      }
    }
  } finally {
    for (const peer of env.peers) {
      const pod = pods.get(peer.name);
      if (pod) await removePod(peer, pod).catch((err: unknown) => env.log(`exec: removing ${peer.name}'s pod: ${String(err)}`));
    }
  }
  return [series.row('exec', 'ExecSync true p50', 'ms', 'ExecSync', p50), series.row('exec', 'ExecSync true p99', 'ms', 'ExecSync', p99)];
}

export const exec: Scenario = { name: 'exec', run };

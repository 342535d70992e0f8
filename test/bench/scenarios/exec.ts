// exec: what a kubelet exec probe costs. One running container per peer, then ExecSync `true`
// calls, alternating the peers; latency p50 and p99 (steady state: the first call is not counted),
// and the daemon's CPU per call from /proc over all of them, which moves far less from run to run
// than latency on a 2-core machine where the shim, runc and both daemons share the cores.
import { Aborted } from '../errors';
import { removePod, startPod, type PodRef } from '../pods';
import type { Peer } from '../peers/peer';
import { cpuSeconds } from '../procs';
import type { Row } from '../report';
import { only, p50, p99, timed } from '../stats';
import { alternating, PeerSeries, type Scenario, type ScenarioEnv } from './scenario';

const RPC_DEADLINE_MS = 30_000;
/**
 * Calls per --iterations: the p99 of 30 calls was the slowest one, and its ratio moved from 0.29x
 * to 2.6x between runs of the same builds; of 150 it is the 2nd slowest (~10 s per peer).
 */
export const EXEC_CALLS_PER_ITERATION = 5;

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
    // Each daemon's CPU over its own calls (the other daemon's calls in between cost it nothing).
    const cpuBefore = new Map(env.peers.map((peer) => [peer.name, cpuSeconds(peer.pid)]));
    const calls = env.iterations * EXEC_CALLS_PER_ITERATION;
    for (let i = 0; i < calls; i++) {
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
    for (const peer of env.peers) {
      const before = cpuBefore.get(peer.name);
      const after = cpuSeconds(peer.pid);
      if (before !== undefined && after !== undefined && !series.failed(peer.name)) series.add(peer.name, 'cpu', ((after - before) * 1000) / calls);
    }
  } finally {
    for (const peer of env.peers) {
      const pod = pods.get(peer.name);
      if (pod) await removePod(peer, pod).catch((err: unknown) => env.log(`exec: removing ${peer.name}'s pod: ${String(err)}`));
    }
  }
  return [
    series.row('exec', 'ExecSync true p50', 'ms', 'ExecSync', p50),
    series.row('exec', 'ExecSync true p99', 'ms', 'ExecSync', p99),
    series.row('exec', 'ExecSync true, daemon CPU per call', 'ms', 'cpu', only),
  ];
}

export const exec: Scenario = { name: 'exec', run };

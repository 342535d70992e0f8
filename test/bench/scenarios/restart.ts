// restart: with 20 running pods on each daemon, stop the daemon (SIGTERM: graceful; SIGKILL: a
// crash; containers and shims keep running) and start it again on the same root, state and
// socket. Timed from the exec of the new process until it answers Version AND ListContainers
// shows all 20 containers RUNNING (berthd serves only after its recovery; containerd's CRI may
// serve earlier, so the listing is what makes the two comparable). `restarts` of each kind,
// peers alternating. After each restart one ExecSync `true` (a kubelet's exec probe, the first call
// of its kind into the new process, so what it loads on first use counts), into the pods in turn:
// the pods still work through the restarted daemon. Then they are removed.
// Before the timed restarts, each daemon is restarted once untimed and serves a few seconds, as a
// runtime on a node has served since its last restart: berthd writes its warm code cache then
// (bundle_start.ts), with the recovery and an exec probe's code in it; timed restarts, a second
// apart, never serve that long. The untimed restart, a first restart after the daemon's first start,
// is in the log.
// The load floor (load_floor.ts: bin/berthd --help) goes beside berth's exec-to-serving rows, and
// the Node floor's SIGTERM-to-gone (node_floor.ts) beside the stop row, each with berthd's p50 above it.
import type { CriClient } from '../../harness/cri_client';
import { Aborted } from '../errors';
import { removePods, startPod, type PodRef } from '../pods';
import type { RestartSignal } from '../peers/daemon_process';
import type { Peer } from '../peers/peer';
import { isAlive, type ProcessRef } from '../procs';
import { loadFloorMs } from '../load_floor';
import { nodeFloor } from '../node_floor';
import { value, type Cell, type Row } from '../report';
import { p50, timed } from '../stats';
import { alternating, PeerSeries, type Scenario, type ScenarioEnv } from './scenario';
import { WARM_CACHE_AFTER_MS } from '../../../cmd/berthd/bundle_start';

export const RESTART_PODS = 20;
const SIGNALS: readonly RestartSignal[] = ['SIGTERM', 'SIGKILL'];
/** Node floor processes stopped for the stop row's floor (a few ms each, so more than the memory row's 3). */
const STOP_FLOOR_SAMPLES = 7;
const RPC_DEADLINE_MS = 30_000;
/** How long each daemon serves after its untimed restart: until berthd's warm code cache is written. */
const WARM_UP_SERVE_MS = WARM_CACHE_AFTER_MS + 1_500;
const deadline = () => ({ deadline: Date.now() + RPC_DEADLINE_MS });

/** A peer's pods for this scenario and the shims serving them when they were all up. */
interface PeerPods {
  peer: Peer;
  pods: PodRef[];
  containerIds: Set<string>;
  shims: ProcessRef[];
}

interface PodsUndo {
  peer: Peer;
  undo: () => Promise<void>;
}

/** The "everything reconnected" check: every one of our containers listed, and RUNNING. */
export function allRunning(ids: ReadonlySet<string>): (cri: CriClient) => Promise<boolean> {
  return async (cri) => {
    const { containers } = await cri.runtime.ListContainers({}, deadline());
    const running = containers.filter((c) => ids.has(c.id) && c.state === 'CONTAINER_RUNNING');
    return running.length === ids.size;
  };
}

/** Starts the pods one by one; their removal is on the cleanup stack before the first exists. */
async function startPeerPods(env: ScenarioEnv, peer: Peer, undos: PodsUndo[]): Promise<PeerPods> {
  const pods: PodRef[] = [];
  const undo = env.cleanup.push(`${peer.name} restart pods`, async () => {
    const left = await removePods(peer, pods);
    if (left.length > 0) throw new Error(left.join('; '));
  });
  undos.push({ peer, undo });
  for (let k = 0; k < RESTART_PODS; k++) pods.push(await startPod(peer, `rs-${env.ctx.runId}-${k}`, env.ctx));
  const containerIds = new Set(pods.map((p) => p.containerId!));
  const shims = peer.shims();
  if (shims.length === 0) throw new Error(`${peer.name}: no shim processes found for ${RESTART_PODS} running pods`);
  return { peer, pods, containerIds, shims };
}

/**
 * One restart, timed; then the shims that served before must still be the same processes, and the
 * first ExecSync is timed. Each restart's figures also go to the log (and the report's notes): the
 * rows give only p50 and max.
 */
async function restartOnce(env: ScenarioEnv, series: PeerSeries, state: PeerPods, signal: RestartSignal, turn: number): Promise<void> {
  const { peer } = state;
  const timing = await peer.restart(signal, allRunning(state.containerIds));
  env.log(`restart: ${peer.name} ${signal}: old process gone after ${timing.stopMs.toFixed(1)} ms, serving after ${timing.serveMs.toFixed(0)} ms`);
  const lost = state.shims.filter((shim) => !isAlive(shim));
  if (lost.length > 0) throw new Error(`${signal} restart: shim pid(s) ${lost.map((s) => s.pid).join(', ')} did not survive`);
  series.add(peer.name, `${signal} serve`, timing.serveMs);
  series.add(peer.name, `${signal} stop`, timing.stopMs);
  const containerId = state.pods[turn % state.pods.length]!.containerId!;
  const { value: res, ms } = await timed(() =>
    peer.cri.runtime.ExecSync({ container_id: containerId, cmd: ['true'], timeout: '10' }, deadline()),
  );
  if (res.exit_code !== 0) throw new Error(`ExecSync true in ${containerId} after a ${signal} restart: exit code ${res.exit_code}`);
  series.add(peer.name, 'exec', ms);
  env.log(`restart: ${peer.name} ${signal}: first ExecSync took ${ms.toFixed(1)} ms`);
}

async function run(env: ScenarioEnv): Promise<Row[]> {
  const series = new PeerSeries(env);
  const undos: PodsUndo[] = [];
  const ready: PeerPods[] = [];
  const failed = (peer: Peer, stage: string) => (err: unknown) => {
    if (err instanceof Aborted) throw err;
    series.fail(peer.name, err);
    env.log(`restart: ${peer.name} failed ${stage}: ${err instanceof Error ? err.message : String(err)}`);
  };
  try {
    for (const peer of env.peers) {
      if (env.ctx.aborted()) throw new Aborted();
      await startPeerPods(env, peer, undos).then((state) => void ready.push(state), failed(peer, `starting ${RESTART_PODS} pods`));
    }
    for (const state of ready) {
      if (env.ctx.aborted()) throw new Aborted();
      const warmUp = async () => {
        const t = await state.peer.restart('SIGTERM', allRunning(state.containerIds));
        env.log(`restart: ${state.peer.name} untimed SIGTERM restart: old process gone after ${t.stopMs.toFixed(1)} ms, serving after ${t.serveMs.toFixed(0)} ms`);
        // What a node's kubelet asks meanwhile: an exec probe.
        await state.peer.cri.runtime.ExecSync({ container_id: state.pods[0]!.containerId!, cmd: ['true'], timeout: '10' }, deadline());
      };
      await warmUp().catch(failed(state.peer, 'untimed restart'));
    }
    await new Promise((r) => setTimeout(r, WARM_UP_SERVE_MS));
    let turn = 0;
    for (const signal of SIGNALS) {
      for (let round = 0; round < env.restarts; round++, turn++) {
        for (const state of alternating(ready, turn)) {
          if (env.ctx.aborted()) throw new Aborted();
          if (series.failed(state.peer.name)) continue;
          await restartOnce(env, series, state, signal, turn).catch(failed(state.peer, `${signal} restart ${round + 1}`));
        }
      }
      env.log(`restart: ${env.restarts} ${signal} restarts done`);
    }
  } finally {
    // Pods out through CRI (the restarted daemons), newest first.
    for (const { peer, undo } of undos.reverse()) await undo().catch(failed(peer, 'removing pods'));
  }
  const hasBerth = env.peers.some((p) => p.name === 'berth');
  // bin/berthd --help (load_floor.ts); the Node floor's SIGTERM to gone (node_floor.ts): Node's own
  // exit and the kernel freeing a process of the floor's size, which berthd pays after its own stop.
  const floor = hasBerth ? await measured(env, 'load floor', loadFloorMs) : undefined;
  const stopFloor = hasBerth ? await measured(env, 'stop floor', async () => (await nodeFloor(STOP_FLOOR_SAMPLES)).stopMs) : undefined;
  const max = (samples: number[]) => Math.max(...samples);
  const ready20 = `serving, ${RESTART_PODS} running`;
  const stop = series.row('restart', 'SIGTERM -> old process gone (p50)', 'ms', 'SIGTERM stop', p50);
  return [
    ...servingRows(series, 'SIGTERM', ready20, floor),
    series.row('restart', `SIGTERM -> exec to ${ready20} (max)`, 'ms', 'SIGTERM serve', max),
    ...withFloor(stop, stopFloor, 'SIGTERM -> old process gone above the Node floor (containerd: all)'),
    ...servingRows(series, 'SIGKILL', ready20, floor),
    series.row('restart', `SIGKILL -> exec to ${ready20} (max)`, 'ms', 'SIGKILL serve', max),
    series.row('restart', 'first ExecSync true after a restart (p50)', 'ms', 'exec', p50),
    series.row('restart', 'first ExecSync true after a restart (max)', 'ms', 'exec', max),
  ];
}

/** A floor's figure, or undefined (logged) when it cannot be had: the rows then go without it. */
async function measured(env: ScenarioEnv, what: string, measure: () => Promise<number>): Promise<number | undefined> {
  try {
    return await measure();
  } catch (err) {
    env.log(`restart: no ${what}: ${err instanceof Error ? err.message : String(err)}`);
    return undefined;
  }
}

/** `row` with `floor` beside it, and a row of berthd's figure above that floor; `row` alone without a floor. */
function withFloor(row: Row, floor: number | undefined, ownFigure: string): Row[] {
  if (floor === undefined) return [row];
  const own: Cell = 'value' in row.berth ? value(row.berth.value - floor) : row.berth;
  return [{ ...row, floor }, { scenario: 'restart', figure: ownFigure, unit: 'ms', containerd: row.containerd, berth: own }];
}

/** A signal's exec-to-serving p50 with the load floor beside it, and berthd's p50 above that floor. */
function servingRows(series: PeerSeries, signal: RestartSignal, ready: string, floor: number | undefined): Row[] {
  const median = series.row('restart', `${signal} -> exec to ${ready} (p50)`, 'ms', `${signal} serve`, p50);
  return withFloor(median, floor, `${signal} -> exec to serving above the load floor (containerd: all)`);
}

export const restart: Scenario = { name: 'restart', run };

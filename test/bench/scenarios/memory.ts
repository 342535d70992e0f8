// memory: each daemon's RSS (VmRSS) idle and with 20 running pods (pause + one busybox container
// each), daemon alone and daemon plus the shims serving it (berth runs the same shim binary), the
// growth per pod, and the Node floor (node_floor.ts): a bare Node process with berthd's modules,
// shown in the floor column of berthd's RSS rows and as berthd's RSS above it. The scale scenario
// adds its 110-pod rows to this group.
import { Aborted } from '../errors';
import { nodeFloor } from '../node_floor';
import { removePods, startPod, type PodRef } from '../pods';
import type { Peer } from '../peers/peer';
import { rssKiB } from '../procs';
import { cellFromError, value, type Cell, type Row } from '../report';
import { only } from '../stats';
import { PeerSeries, type Scenario, type ScenarioEnv } from './scenario';

export const MEMORY_PODS = 20;
export const NODE_FLOOR_FIGURE = 'Node floor (bare node, berthd modules)';

const mib = (kib: number) => kib / 1024;

export interface Rss {
  daemon: number;
  shims: number;
  shimCount: number;
}

/** RSS in MiB of a peer's daemon, and of the shims serving it now. */
export function measureRss(peer: Peer): Rss {
  const daemon = rssKiB(peer.pid);
  if (daemon === undefined) throw new Error(`${peer.name} (pid ${peer.pid}) is gone`);
  const shims = peer.shims();
  const shimRss = shims.reduce((sum, shim) => sum + (rssKiB(shim.pid) ?? 0), 0);
  return { daemon: mib(daemon), shims: mib(shimRss), shimCount: shims.length };
}

/** Idle figures go to `idleSeries` first, so a peer that cannot run pods still shows them. */
async function measurePeer(env: ScenarioEnv, peer: Peer, idleSeries: PeerSeries, series: PeerSeries): Promise<void> {
  const idle = measureRss(peer);
  idleSeries.add(peer.name, 'idle', idle.daemon);
  idleSeries.add(peer.name, 'idle+shims', idle.daemon + idle.shims);
  const pods: PodRef[] = [];
  const undo = env.cleanup.push(`${peer.name} memory pods`, async () => {
    const left = await removePods(peer, pods);
    if (left.length > 0) throw new Error(left.join('; '));
  });
  try {
    for (let k = 0; k < MEMORY_PODS; k++) pods.push(await startPod(peer, `mem-${env.ctx.runId}-${k}`, env.ctx));
    const busy = measureRss(peer);
    series.add(peer.name, 'busy', busy.daemon);
    series.add(peer.name, 'busy+shims', busy.daemon + busy.shims);
    series.add(peer.name, 'shims', busy.shimCount);
    series.add(peer.name, 'per pod', (busy.daemon - idle.daemon) / MEMORY_PODS);
  } finally {
    await undo();
  }
}

/** The Node floor row (withOwnShares puts berthd's RSS above it after each RSS row). */
function floorRow(floor: Cell): Row {
  return { scenario: 'memory', figure: NODE_FLOOR_FIGURE, unit: 'MiB', containerd: { na: '(Go: no Node floor)' }, berth: floor };
}

/**
 * After each RSS row with the Node floor beside it (idle, and "N pods" for the daemon and for the
 * daemon+shims: the shims are the same binary under both daemons), a row of berthd's figure above
 * that floor, containerd's cell its whole figure: what is berth's own, at every size. Idle
 * daemon+shims is idle daemon (no pods, no shims), so it gets none.
 */
export function withOwnShares(rows: readonly Row[]): Row[] {
  return rows.flatMap((row) => {
    if (row.scenario !== 'memory' || !/^RSS (idle, daemon|\d+ pods, daemon(\+shims)?)$/.test(row.figure) || row.floor === undefined) return [row];
    const own: Cell = 'value' in row.berth ? value(row.berth.value - row.floor) : row.berth;
    return [row, { scenario: 'memory', figure: `${row.figure} above Node floor (containerd: all)`, unit: row.unit, containerd: row.containerd, berth: own }];
  });
}

async function run(env: ScenarioEnv): Promise<Row[]> {
  const idleSeries = new PeerSeries(env);
  const series = new PeerSeries(env);
  for (const peer of env.peers) {
    if (env.ctx.aborted()) throw new Aborted();
    try {
      await measurePeer(env, peer, idleSeries, series);
    } catch (err) {
      if (err instanceof Aborted) throw err;
      series.fail(peer.name, err);
      if (idleSeries.of(peer.name, 'idle').length === 0) idleSeries.fail(peer.name, err);
      env.log(`memory: ${peer.name} failed: ${(err as Error).message}`);
    }
  }
  let floor: Cell;
  try {
    floor = value((await nodeFloor()).rssMiB);
  } catch (err) {
    floor = cellFromError(err);
    env.log(`memory: ${(err as Error).message}`);
  }
  const idle = idleSeries.row('memory', 'RSS idle, daemon', 'MiB', 'idle', only);
  return [
    idle,
    idleSeries.row('memory', 'RSS idle, daemon+shims', 'MiB', 'idle+shims', only),
    floorRow(floor),
    series.row('memory', `RSS ${MEMORY_PODS} pods, daemon`, 'MiB', 'busy', only),
    series.row('memory', `RSS ${MEMORY_PODS} pods, daemon+shims`, 'MiB', 'busy+shims', only),
    series.row('memory', `daemon RSS growth per pod (${MEMORY_PODS} pods)`, 'MiB', 'per pod', only),
    series.row('memory', `shim processes with ${MEMORY_PODS} pods`, 'shims', 'shims', only),
  ];
}

export const memory: Scenario = { name: 'memory', run };

// scale: a full node (issue 16). Per peer: `scalePods` pods (110, the kubelet's maxPods; pause + 2
// busybox containers each) started as the kubelet's pod workers start them, at most 10 in flight;
// with all running, the kubelet's read calls timed one by one
// (scale_queries.ts), and for berth the same calls again against the gRPC floor (grpc_floor.ts), a
// bare grpc-js server giving berthd's answers; `steadySeconds` of the kubelet's polling
// (kubelet_poll.ts) with the daemon's CPU seconds (and its shims') from /proc, per minute, once on
// one long-lived connection and once with a connection per call as crictl 1.26 makes them
// (poll_calls.ts); one SIGTERM and one SIGKILL restart of the daemon, timed to serving with all
// containers RUNNING (restart.ts's check); the pods torn down 10 in flight (StopPodSandbox +
// RemovePodSandbox). RSS at N pods goes to the memory rows. The pods' removal is on the cleanup
// stack from before the first one exists, so a failure or SIGINT never leaves them behind.
// The start, the read calls (without the stats calls) and the tear-down are timed `scaleRounds`
// times per peer (args.ts says why), the peers alternating so that over all rounds each goes first
// as often as last (B A A B for two rounds); only the last start goes on to the rest. The start's
// and tear-down's wall and CPU rows are the mean over rounds; the per-pod and call rows pool the
// samples of every round, so a call row does not rest on one window of each peer: in one window the
// sub-millisecond calls of the same build moved by a fifth from run to run, floor and all.
import { Aborted } from '../errors';
import { KubeletPoller } from '../kubelet_poll';
import { POLL_CONNECTIONS } from '../poll_calls';
import { CONTAINER_NAMES, removeKubeletPod, startKubeletPod, type KubeletPod } from '../kubelet_pod';
import { netnsPathFromInfo } from '../netns';
import type { Peer, PeerName } from '../peers/peer';
import { runPool } from '../pool';
import { cpuSeconds } from '../procs';
import { value, type Cell, type Row } from '../report';
import { GrpcFloor } from '../grpc_floor';
import { querySchedule, runQueries, QUERY_FIGURES, type Answer, type Query, type QueryFigure } from '../scale_queries';
import { mean, msSince, only, p50, p99 } from '../stats';
import { measureRss, type Rss } from './memory';
import { allRunning } from './restart';
import type { RestartSignal } from '../peers/daemon_process';
import { isAlive } from '../procs';
import { alternating, PeerSeries, type Scenario, type ScenarioEnv } from './scenario';
import { hostBaseline, settleHost } from '../settle';

/** Untimed calls of each figure on the gRPC floor before its timed ones. */
const FLOOR_WARM_UP_CALLS = 50;

/** The kubelet's pod workers: how many pods it brings up (and down) at once. */
export const PODS_IN_FLIGHT = 10;

const PHASES = ['start', 'memory', 'queries', 'steady', 'restart', 'teardown'] as const;
const RESTART_SIGNALS: readonly RestartSignal[] = ['SIGTERM', 'SIGKILL'];
type Phase = (typeof PHASES)[number];
/**
 * One series per phase; the queries one per figure, so a call a peer lacks leaves the others
 * standing; the gRPC floor's samples of each query figure under berth's name (grpc_floor.ts).
 */
type Series = Record<Exclude<Phase, 'queries'>, PeerSeries> & {
  queries: Record<QueryFigure, PeerSeries>;
  grpcFloor: PeerSeries;
};

function newSeries(env: ScenarioEnv): Series {
  const one = () => new PeerSeries(env);
  const queries = Object.fromEntries(QUERY_FIGURES.map((f) => [f, one()])) as Record<QueryFigure, PeerSeries>;
  return { start: one(), memory: one(), queries, steady: one(), restart: one(), teardown: one(), grpcFloor: one() };
}

function seriesOf(series: Series, phase: Phase): PeerSeries[] {
  return phase === 'queries' ? Object.values(series.queries) : [series[phase]];
}

/** The first rejection among settled results, if any. */
function firstFailure(results: ReadonlyArray<PromiseSettledResult<unknown>>): unknown {
  return results.find((r): r is PromiseRejectedResult => r.status === 'rejected')?.reason;
}

/** CPU seconds of the daemon, and of the daemon plus the shims serving it now. */
function cpuOf(peer: Peer, shimPids: readonly number[]): { daemon: number; withShims: number } {
  const daemon = cpuSeconds(peer.pid);
  if (daemon === undefined) throw new Error(`${peer.name} (pid ${peer.pid}) is gone`);
  return { daemon, withShims: shimPids.reduce((sum, pid) => sum + (cpuSeconds(pid) ?? 0), daemon) };
}

class PeerRun {
  /** Pods whose sandbox exists and that were not removed yet. */
  readonly live = new Map<string, KubeletPod>();
  phase: Phase = 'start';

  constructor(
    private readonly env: ScenarioEnv,
    private readonly peer: Peer,
    private readonly series: Series,
    /** Each daemon's RSS before its first start, taken then: the growth per pod counts from there. */
    private readonly idle: Map<PeerName, Rss>,
  ) {}

  private add(phase: Exclude<Phase, 'queries'>, figure: string, v: number): void {
    this.series[phase].add(this.peer.name, figure, v);
  }

  /** Removes `ids`, 10 in flight; `onRemoved` gets each pod's ms. Throws the first failure after all ran. */
  async removePods(ids: readonly string[], onRemoved: (ms: number) => void = () => undefined): Promise<void> {
    const results = await runPool(ids.length, PODS_IN_FLIGHT, async (i) => {
      const start = process.hrtime.bigint();
      await removeKubeletPod(this.peer, ids[i]!);
      this.live.delete(ids[i]!);
      onRemoved(msSince(start));
    });
    const failure = firstFailure(results);
    if (failure !== undefined) throw failure;
  }

  async start(): Promise<KubeletPod[]> {
    const { env, peer } = this;
    if (!this.idle.has(peer.name)) this.idle.set(peer.name, measureRss(peer));
    const cpuBefore = cpuOf(peer, []).daemon;
    const wallStart = process.hrtime.bigint();
    const results = await runPool(env.scalePods, PODS_IN_FLIGHT, async (k) => {
      const start = process.hrtime.bigint();
      const pod = await startKubeletPod(peer, `scale-${env.ctx.runId}-${k}`, env.ctx, (p) => this.live.set(p.podId, p));
      this.add('start', 'pod', msSince(start));
      return pod;
    });
    const wall = msSince(wallStart);
    const failure = firstFailure(results);
    if (failure !== undefined) throw failure;
    this.add('start', 'wall', wall);
    this.add('start', 'cpu', cpuOf(peer, []).daemon - cpuBefore);
    const pods = results.map((r) => (r as PromiseFulfilledResult<KubeletPod>).value);
    // Untimed: the netns paths, so the bench's sweep can find any the daemon leaves behind.
    for (const pod of pods) {
      try {
        const status = await peer.cri.runtime.PodSandboxStatus({ pod_sandbox_id: pod.podId, verbose: true }, { deadline: Date.now() + 60_000 });
        env.ctx.netns.record(netnsPathFromInfo(status.info));
      } catch {
        // a convenience for the sweep, not a figure; the queries below time this call
      }
    }
    return pods;
  }

  async run(): Promise<void> {
    const { env, peer } = this;
    const pods = await this.start();

    this.phase = 'memory';
    const busy = measureRss(peer);
    this.add('memory', 'daemon', busy.daemon);
    this.add('memory', 'daemon+shims', busy.daemon + busy.shims);
    this.add('memory', 'per pod', (busy.daemon - this.idle.get(peer.name)!.daemon) / pods.length);
    this.add('memory', 'shims', busy.shimCount);

    await this.query(pods, true);

    this.phase = 'steady';
    const shimPids = peer.shims().map((s) => s.pid);
    for (const connection of POLL_CONNECTIONS) {
      const poller = await KubeletPoller.open(peer, env.ctx, connection);
      try {
        const before = cpuOf(peer, shimPids);
        const polled = await poller.run(env.steadySeconds);
        const after = cpuOf(peer, shimPids);
        // A stats pass begun near the end finishes past it: CPU is given per minute of the window as run.
        const perMinute = 60_000 / polled.windowMs;
        this.add('steady', `cpu ${connection}`, (after.daemon - before.daemon) * perMinute);
        this.add('steady', `cpu+shims ${connection}`, (after.withShims - before.withShims) * perMinute);
        this.add('steady', `window ${connection}`, polled.windowMs / 1000);
        if (connection === 'long-lived') this.add('steady', 'rss', measureRss(peer).daemon);
        env.log(
          `scale: ${peer.name} polling (${connection}) ${(polled.windowMs / 1000).toFixed(1)} s: ${polled.relists} relists, ` +
            `${polled.inspections} pods inspected, ${polled.statsPasses} stats passes` +
            `${polled.unimplemented.length > 0 ? ` (UNIMPLEMENTED, left out: ${polled.unimplemented.join(', ')})` : ''}, ` +
            `events stream: ${typeof polled.events === 'number' ? `${polled.events} events` : `not open (${polled.events})`}`,
        );
      } finally {
        poller.close();
      }
    }

    this.phase = 'restart';
    const containerIds = new Set(pods.flatMap((p) => p.containerIds));
    for (const signal of RESTART_SIGNALS) {
      const shims = peer.shims();
      const timing = await peer.restart(signal, allRunning(containerIds));
      const lost = shims.filter((shim) => !isAlive(shim));
      if (lost.length > 0) throw new Error(`${signal} restart: ${lost.length} shim(s) did not survive`);
      this.add('restart', signal, timing.serveMs);
    }

    await this.tearDown();
  }

  /** An earlier round: the pods started, queried (without the stats calls) and torn down, timed. */
  async startQueryAndTearDown(): Promise<void> {
    await this.query(await this.start(), false);
    await this.tearDown();
  }

  /**
   * The kubelet's read calls timed on the running pods (the stats calls only if `withStats`), then
   * for berth the same calls on the gRPC floor, while the pods still load the machine as they did
   * for berthd's calls.
   */
  private async query(pods: readonly KubeletPod[], withStats: boolean): Promise<void> {
    const { env, peer } = this;
    this.phase = 'queries';
    const queries = this.series.queries;
    const schedule = querySchedule(pods, withStats);
    const answers = new Map<QueryFigure, Answer>();
    await runQueries(peer.cri, schedule, env.ctx, {
      record: (figure, ms, answer) => {
        queries[figure].add(peer.name, figure, ms);
        if (!answers.has(figure)) answers.set(figure, answer);
      },
      fail: (figure, err) => {
        queries[figure].fail(peer.name, err);
        env.log(`scale: ${peer.name} ${figure} failed: ${(err as Error).message}`);
      },
      failed: (figure) => queries[figure].failed(peer.name),
    });
    if (peer.name === 'berth') await this.measureGrpcFloor(schedule, answers);
  }

  private async tearDown(): Promise<void> {
    this.phase = 'teardown';
    const wallStart = process.hrtime.bigint();
    await this.removePods([...this.live.keys()], (ms) => this.add('teardown', 'pod', ms));
    this.add('teardown', 'wall', msSince(wallStart));
    const { items } = await this.peer.cri.runtime.ListPodSandbox({ filter: { label_selector: { app: 'berth-bench-scale' } } }, { deadline: Date.now() + 60_000 });
    if (items.length > 0) throw new Error(`${items.length} scale pods still listed after tear-down`);
  }

  /**
   * The same queries against the gRPC floor, each figure answered with berthd's first answer to it,
   * in the schedule's own order: a small call right after a list of 220 containers pays for the
   * list's garbage on the floor as on berthd (timed figure by figure, the floor's ImageFsInfo p50
   * was ~0.3 ms below the same calls made between the lists). A floor that fails leaves its figures
   * without a floor; berthd's own figures stand.
   */
  private async measureGrpcFloor(schedule: readonly Query[], answers: ReadonlyMap<QueryFigure, Answer>): Promise<void> {
    const { env } = this;
    const floor = this.series.grpcFloor;
    let server: GrpcFloor;
    try {
      server = await GrpcFloor.start(env.tmpDir);
    } catch (err) {
      env.log(`scale: no gRPC floor: ${(err as Error).message}`);
      return;
    }
    const ignore = { record: () => undefined, fail: () => undefined, failed: () => false };
    try {
      const answered = schedule.filter((q) => answers.has(q.figure));
      for (const [figure, answer] of answers) {
        const calls = answered.filter((q) => q.figure === figure);
        await server.answer(calls[0]!.service, calls[0]!.method, answer, calls[0]!.request);
        // Untimed first: berthd has served thousands of calls by now, the floor none (V8 tiers up hot code).
        await runQueries(server.cri, calls.slice(0, FLOOR_WARM_UP_CALLS), env.ctx, ignore);
      }
      const failed = new Set<QueryFigure>();
      await runQueries(server.cri, answered, env.ctx, {
        record: (f, ms) => floor.add('berth', f, ms),
        fail: (f, err) => {
          failed.add(f);
          env.log(`scale: gRPC floor ${f} failed: ${(err as Error).message}`);
        },
        failed: (f) => failed.has(f),
      });
    } finally {
      await server.stop();
    }
  }

  /** Marks the phase that failed and every later one, so no figure of this peer looks complete. */
  fail(err: unknown): void {
    for (const phase of PHASES.slice(PHASES.indexOf(this.phase))) {
      for (const series of seriesOf(this.series, phase)) series.fail(this.peer.name, err);
    }
  }
}

/** One round of one peer: the whole scenario in the last round, the start, queries and tear-down before it. */
async function runPeer(env: ScenarioEnv, peer: Peer, series: Series, idle: Map<PeerName, Rss>, last: boolean): Promise<void> {
  const run = new PeerRun(env, peer, series, idle);
  const undo = env.cleanup.push(`${peer.name} scale pods`, () => run.removePods([...run.live.keys()]));
  try {
    await (last ? run.run() : run.startQueryAndTearDown());
    env.log(`scale: ${peer.name} ${last ? 'done' : 'started, queried and tore down its pods'}`);
  } catch (err) {
    if (err instanceof Aborted) throw err;
    run.fail(err);
    env.log(`scale: ${peer.name} failed in ${run.phase}: ${(err as Error).message}`);
  } finally {
    try {
      await undo();
    } catch (err) {
      run.fail(new Error(`removal: ${(err as Error).message}`));
      env.log(`scale: ${peer.name} removal failed: ${(err as Error).message}`);
    }
  }
}

/**
 * Who runs when over `rounds` rounds: counted back from the last round, which keeps the peers' own
 * order, the rounds alternate, so each peer goes first as often as last (B A A B for two rounds).
 */
export function roundOrder<T>(peers: readonly T[], rounds: number): Array<{ peer: T; last: boolean }> {
  return Array.from({ length: rounds }, (_, round) =>
    alternating(peers, rounds - 1 - round).map((peer) => ({ peer, last: round === rounds - 1 })),
  ).flat();
}

/** A figure's p50 and p99 with the gRPC floor beside them, and berthd's p50 above that floor. */
function queryRows(s: Series, figure: QueryFigure, n: number): Row[] {
  const floorSamples = s.grpcFloor.of('berth', figure);
  const withFloor = (row: Row, reduce: (samples: number[]) => number): Row =>
    floorSamples.length > 0 ? { ...row, floor: reduce(floorSamples) } : row;
  const median = withFloor(s.queries[figure].row('scale', `${figure} p50 (${n} pods)`, 'ms', figure, p50), p50);
  const tail = withFloor(s.queries[figure].row('scale', `${figure} p99 (${n} pods)`, 'ms', figure, p99), p99);
  const own: Cell =
    median.floor !== undefined && 'value' in median.berth ? value(median.berth.value - median.floor) : { na: 'n/a (no gRPC floor)' };
  const ownFigure = `${figure} p50 above the gRPC floor (containerd: all)`;
  const ownRow: Row = { scenario: 'scale', figure: ownFigure, unit: 'ms', containerd: median.containerd, berth: own };
  return [median, tail, ownRow];
}

async function run(env: ScenarioEnv): Promise<Row[]> {
  const series = newSeries(env);
  const baseline = hostBaseline(env.tmpDir);
  const idle = new Map<PeerName, Rss>();
  for (const { peer, last } of roundOrder(env.peers, env.scaleRounds)) {
    if (env.ctx.aborted()) throw new Aborted();
    // Each peer on a host as the first found it, not amid the previous one's tear-down (settle.ts).
    env.log(`scale: host settled in ${(await settleHost(baseline, env.log)).toFixed(0)} s before ${peer.name}`);
    await runPeer(env, peer, series, idle, last);
  }
  const n = env.scalePods;
  const s = series;
  const ofRounds = env.scaleRounds > 1 ? ` (mean of ${env.scaleRounds})` : '';
  return [
    s.start.row('scale', `start ${n} pods (${PODS_IN_FLIGHT} in flight), wall${ofRounds}`, 'ms', 'wall', mean),
    s.start.row('scale', 'start, per pod p50', 'ms', 'pod', p50),
    s.start.row('scale', 'start, per pod p99', 'ms', 'pod', p99),
    s.start.row('scale', `start ${n} pods, daemon CPU${ofRounds}`, 's', 'cpu', mean),
    ...QUERY_FIGURES.flatMap((figure) => queryRows(s, figure, n)),
    ...POLL_CONNECTIONS.flatMap((connection) => {
      const how = connection === 'long-lived' ? 'one long-lived connection' : 'a connection per call, crictl 1.26 style';
      return [
        s.steady.row('scale', `kubelet polling (${env.steadySeconds} s asked, ${how}), window as run`, 's', `window ${connection}`, only),
        s.steady.row('scale', `kubelet polling (${how}), daemon CPU per minute`, 's', `cpu ${connection}`, only),
        s.steady.row('scale', `kubelet polling (${how}), daemon+shims CPU per minute`, 's', `cpu+shims ${connection}`, only),
      ];
    }),
    s.steady.row('scale', `RSS after ${env.steadySeconds} s polling, daemon`, 'MiB', 'rss', only),
    ...RESTART_SIGNALS.map((signal) =>
      s.restart.row('scale', `${signal} -> exec to serving, ${n * CONTAINER_NAMES.length} containers running`, 'ms', signal, only),
    ),
    s.teardown.row('scale', `tear-down ${n} pods (${PODS_IN_FLIGHT} in flight), wall${ofRounds}`, 'ms', 'wall', mean),
    s.teardown.row('scale', 'tear-down, per pod p50', 'ms', 'pod', p50),
    s.teardown.row('scale', 'tear-down, per pod p99', 'ms', 'pod', p99),
    s.memory.row('memory', `RSS ${n} pods, daemon`, 'MiB', 'daemon', only),
    s.memory.row('memory', `RSS ${n} pods, daemon+shims`, 'MiB', 'daemon+shims', only),
    s.memory.row('memory', `daemon RSS growth per pod (${n} pods)`, 'MiB', 'per pod', only),
    s.memory.row('memory', `shim processes with ${n} pods`, 'shims', 'shims', only),
  ];
}

export const scale: Scenario = { name: 'scale', run };

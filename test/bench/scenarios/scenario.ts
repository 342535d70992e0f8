// What a scenario gets and gives: the running peers (same CRI code drives both), run options and
// the cleanup stack in; rows of figures out. Helpers keep per-peer samples and failures and turn
// them into rows, and alternate which peer goes first on each iteration (A/B, B/A, ...).
import type { TestImagePaths } from '../../harness/images';
import type { CleanupStack } from '../cleanup';
import type { BenchContext } from '../pods';
import { PEER_NAMES, type Peer, type PeerName } from '../peers/peer';
import { cellFromError, value, type Cell, type Row } from '../report';

export interface ScenarioEnv {
  /** The peers that started, in A/B order. */
  peers: readonly Peer[];
  /** Why a peer is not in `peers` (it failed to start). */
  unavailable: Partial<Record<PeerName, Cell>>;
  ctx: BenchContext;
  iterations: number;
  rounds: number;
  /** Restarts of each kind in the restart scenario. */
  restarts: number;
  /** The scale scenario's pod count, steady-state window, and starts per peer. */
  scalePods: number;
  steadySeconds: number;
  scaleRounds: number;
  images: TestImagePaths;
  cleanup: CleanupStack;
  /** The bench run's own temp dir. */
  tmpDir: string;
  log(line: string): void;
}

export interface Scenario {
  name: string;
  run(env: ScenarioEnv): Promise<Row[]>;
}

/** Peers in A/B order on even iterations, B/A on odd ones. */
export function alternating<T>(peers: readonly T[], iteration: number): T[] {
  return iteration % 2 === 0 ? [...peers] : [...peers].reverse();
}

/** Per-peer samples of several named figures, and the first failure that ended a peer's run. */
export class PeerSeries {
  private readonly samples = new Map<string, number[]>();
  private readonly failures = new Map<PeerName, Cell>();

  constructor(private readonly env: ScenarioEnv) {}

  add(peer: PeerName, figure: string, ms: number): void {
    const key = `${peer}\0${figure}`;
    const list = this.samples.get(key) ?? [];
    list.push(ms);
    this.samples.set(key, list);
  }

  fail(peer: PeerName, err: unknown): void {
    if (!this.failures.has(peer)) this.failures.set(peer, cellFromError(err));
  }

  failed(peer: PeerName): boolean {
    return this.failures.has(peer);
  }

  of(peer: PeerName, figure: string): number[] {
    return this.samples.get(`${peer}\0${figure}`) ?? [];
  }

  /** One row: `reduce` over each peer's samples, or its failure / unavailability. */
  row(scenario: string, figure: string, unit: string, source: string, reduce: (samples: number[]) => number): Row {
    const cells = {} as Record<PeerName, Cell>;
    const counts: Partial<Record<PeerName, number>> = {};
    for (const name of PEER_NAMES) {
      const samples = this.of(name, source);
      counts[name] = samples.length;
      cells[name] =
        this.env.unavailable[name] ??
        this.failures.get(name) ??
        (samples.length > 0 ? value(reduce(samples)) : { na: 'n/a (no samples)' });
    }
    return { scenario, figure, unit, containerd: cells.containerd, berth: cells.berth, samples: counts };
  }
}

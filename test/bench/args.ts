// Command-line flags of `make bench` (node dist/test/bench/main.js [flags]).
import { parseArgs } from 'node:util';

export const SCENARIO_NAMES = ['memory', 'floor', 'lifecycle', 'exec', 'concurrency', 'stats', 'scale', 'import', 'pull', 'restart'] as const;
export type ScenarioName = (typeof SCENARIO_NAMES)[number];

export interface BenchOptions {
  iterations: number;
  rounds: number;
  /** Restarts of each kind (SIGTERM, SIGKILL) in the restart scenario. */
  restarts: number;
  only: ScenarioName[];
  jsonOnly: boolean;
  /** Pods of the scale scenario (the kubelet's maxPods by default). */
  scalePods: number;
  /** Length of the scale scenario's steady-state polling window. */
  steadySeconds: number;
  /** Times each peer starts, queries and tears down the scale scenario's pods; the last run measures the rest. */
  scaleRounds: number;
}

export const DEFAULT_SCALE_PODS = 110;
export const DEFAULT_STEADY_SECONDS = 60;
/**
 * One 110-pod start of the same build took 48-58 s within a run and 45-65 s across runs here (2
 * cores, every pod's runc and CNI plugins competing), so one start per peer gave ratios from 0.84x
 * to 1.13x; two, in B A A B order, cancel a drift of the host across the scenario.
 */
export const DEFAULT_SCALE_ROUNDS = 2;
/**
 * ~1 s each; a p50 of 3 restarts moved by a tenth between runs of the same build, and of 9 the
 * ratio still moved between 0.87x and 1.10x (containerd's own SIGTERM restart: 133-270 ms here).
 */
export const DEFAULT_RESTARTS = 15;

export const USAGE = `usage: node dist/test/bench/main.js [--iterations N] [--rounds N] [--restarts N] [--only S,...] [--scale-pods N] [--steady-seconds N] [--scale-rounds N] [--json-only]

  --iterations N       lifecycle and floor iterations per peer, and 5 ExecSyncs each in exec (default 30)
  --rounds N           rounds of the concurrency, import and pull scenarios (default 3)
  --restarts N         restarts of each kind (SIGTERM, SIGKILL) in the restart scenario (default ${DEFAULT_RESTARTS})
  --only S,...         run only these scenarios: ${SCENARIO_NAMES.join(', ')}
  --scale-pods N       pods of the scale scenario (default $BENCH_SCALE_PODS, else ${DEFAULT_SCALE_PODS})
  --steady-seconds N   the scale scenario's kubelet-polling window (default $BENCH_STEADY_SECONDS, else ${DEFAULT_STEADY_SECONDS})
  --scale-rounds N     starts and tear-downs of the scale scenario's pods per peer, peers in B A A B
                       order, each timing the read calls (the stats calls in the last only); the
                       last start also measures the rest (default $BENCH_SCALE_ROUNDS, else ${DEFAULT_SCALE_ROUNDS})
  --json-only          print the JSON report instead of the table
`;

function positiveInt(flag: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1 || n > 10_000) throw new Error(`${flag} must be an integer from 1 to 10000, got "${text}"`);
  return n;
}

/** Parses argv (without node and the script) and `env` (BENCH_SCALE_PODS, BENCH_STEADY_SECONDS, BENCH_SCALE_ROUNDS; a flag wins); throws naming the bad one. */
export function parseBenchArgs(argv: string[], env: NodeJS.ProcessEnv = process.env): BenchOptions | 'help' {
  const { values } = parseArgs({
    args: argv,
    options: {
      iterations: { type: 'string' },
      rounds: { type: 'string' },
      restarts: { type: 'string' },
      only: { type: 'string' },
      'scale-pods': { type: 'string' },
      'steady-seconds': { type: 'string' },
      'scale-rounds': { type: 'string' },
      'json-only': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
  });
  if (values.help) return 'help';
  const only = (values.only ?? SCENARIO_NAMES.join(','))
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  for (const name of only) {
    if (!(SCENARIO_NAMES as readonly string[]).includes(name)) {
      throw new Error(`--only: unknown scenario "${name}" (have: ${SCENARIO_NAMES.join(', ')})`);
    }
  }
  return {
    iterations: positiveInt('--iterations', values.iterations, 30),
    rounds: positiveInt('--rounds', values.rounds, 3),
    restarts: positiveInt('--restarts', values.restarts, DEFAULT_RESTARTS),
    only: only as ScenarioName[],
    jsonOnly: values['json-only'],
    scalePods: positiveInt('--scale-pods', values['scale-pods'], positiveInt('BENCH_SCALE_PODS', env.BENCH_SCALE_PODS, DEFAULT_SCALE_PODS)),
    steadySeconds: positiveInt(
      '--steady-seconds',
      values['steady-seconds'],
      positiveInt('BENCH_STEADY_SECONDS', env.BENCH_STEADY_SECONDS, DEFAULT_STEADY_SECONDS),
    ),
    scaleRounds: positiveInt(
      '--scale-rounds',
      values['scale-rounds'],
      positiveInt('BENCH_SCALE_ROUNDS', env.BENCH_SCALE_ROUNDS, DEFAULT_SCALE_ROUNDS),
    ),
  };
}

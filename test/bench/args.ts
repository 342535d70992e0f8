// Command-line flags of `make bench` (node dist/test/bench/main.js [flags]).
import { parseArgs } from 'node:util';

export const SCENARIO_NAMES = ['memory', 'floor', 'lifecycle', 'exec', 'concurrency', 'stats', 'import', 'pull', 'restart'] as const;
export type ScenarioName = (typeof SCENARIO_NAMES)[number];

export interface BenchOptions {
  iterations: number;
  rounds: number;
  only: ScenarioName[];
  jsonOnly: boolean;
}

export const USAGE = `usage: node dist/test/bench/main.js [--iterations N] [--rounds N] [--only S,...] [--json-only]

  --iterations N   lifecycle, exec and floor iterations per peer (default 30)
  --rounds N       rounds of the concurrency, import and pull scenarios, and restarts of each kind (default 3)
  --only S,...     run only these scenarios: ${SCENARIO_NAMES.join(', ')}
  --json-only      print the JSON report instead of the table
`;

function positiveInt(flag: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1 || n > 10_000) throw new Error(`${flag} must be an integer from 1 to 10000, got "${text}"`);
  return n;
}

/** Parses argv (without node and the script); throws with a message naming the bad flag. */
export function parseBenchArgs(argv: string[]): BenchOptions | 'help' {
  const { values } = parseArgs({
    args: argv,
    options: {
      iterations: { type: 'string' },
      rounds: { type: 'string' },
      only: { type: 'string' },
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
    only: only as ScenarioName[],
    jsonOnly: values['json-only'],
  };
}

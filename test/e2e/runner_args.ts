// The command line both e2e runners share: `--<flag> VALUE` for what they run (the kubelet binary,
// the cluster's binary dir), `--runtime berth|containerd`, `--check ID[,ID...]`; `--x=v` works too.
import { RUNTIME_NAMES, type RuntimeName } from './runtimes';

export interface RunnerArgs<C> {
  /** The value of the runner's own flag (`fallback` when not given). */
  target: string;
  runtimes: RuntimeName[];
  /** The checks `--check` named, in `knownChecks` order; all of them without it. */
  checks: C[];
}

/** Parses `argv`; throws for an unknown flag or runtime, or a check ID not in `knownChecks`. */
export function parseRunnerArgs<C extends { id: string }>(argv: readonly string[], targetFlag: string, fallback: string, knownChecks: readonly C[]): RunnerArgs<C> {
  let target = fallback;
  let runtimes: RuntimeName[] = [...RUNTIME_NAMES];
  let checkIds: string[] | undefined;
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i]!.split('=', 2) as [string, string | undefined];
    const value = () => inline ?? argv[++i] ?? '';
    if (flag === targetFlag) target = value();
    else if (flag === '--runtime') {
      const r = value();
      if (!RUNTIME_NAMES.includes(r as RuntimeName)) throw new Error(`--runtime: ${r} is not one of ${RUNTIME_NAMES.join(', ')}`);
      runtimes = [r as RuntimeName];
    } else if (flag === '--check') checkIds = value().split(',');
    else throw new Error(`unknown argument ${argv[i]}`);
  }
  const unknown = (checkIds ?? []).filter((id) => !knownChecks.some((c) => c.id === id));
  if (unknown.length > 0) throw new Error(`unknown checks: ${unknown.join(', ')}`);
  return { target, runtimes, checks: knownChecks.filter((c) => checkIds === undefined || checkIds.includes(c.id)) };
}

// The frame both e2e runners (main.ts, cluster/main.ts) put around their checks: the private mount
// namespace, SIGINT/SIGTERM finishing the current check before cleaning up, one temp run dir, the
// runtimes one after the other, the portmap chains swept, the run dir kept when something failed,
// and the exit code.
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testImages } from '../harness/images';
import { portmapChains, removePortmapChains } from './portmap_chains';
import { bindKernelTunables, reexecInPrivateMountNamespace } from './private_mounts';
import type { RuntimeResult } from './report';
import { finishRunDir } from './run_dir';
import type { RuntimeName } from './runtimes';

type TestImages = Awaited<ReturnType<typeof testImages>>;

export interface E2eRun {
  runDir: string;
  /** Random hex (after the runner's prefix): names the cgroup roots and the kept logs. */
  runId: string;
  images: TestImages;
  log: (line: string) => void;
  /** True once SIGINT or SIGTERM came: finish the current check, then clean up. */
  aborted: () => boolean;
}

export interface RunnerSpec {
  /** "e2e" or "e2e-cluster": the log prefix and the run dir's name. */
  name: string;
  /** Keeps this runner's run IDs (and so cgroup roots) apart from the other's. */
  runIdPrefix: string;
  runtimes: readonly RuntimeName[];
  /** Filled in as each runtime finishes. */
  results: Partial<Record<RuntimeName, RuntimeResult>>;
  runOn(runtime: RuntimeName, run: E2eRun): Promise<RuntimeResult>;
  /** Where the run dir (the daemons' and kubelets' logs) is kept when a check failed. */
  keptLogsDir(runId: string): string;
  /** Prints the table and writes the report. */
  finish(): void;
}

export function e2eLog(name: string): (line: string) => void {
  return (line) => process.stderr.write(`${name}: ${line}\n`);
}

/** Runs `spec` (its arguments already parsed); resolves with the exit code. */
export async function runE2e(spec: RunnerSpec): Promise<number> {
  const outer = reexecInPrivateMountNamespace();
  if (outer !== undefined) return outer;
  const log = e2eLog(spec.name);
  let interrupted = false;
  const onSignal = (sig: string) => {
    log(`${sig}: finishing the current check, then cleaning up`);
    interrupted = true;
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const runDir = mkdtempSync(join(tmpdir(), `berth-${spec.name}-`));
  bindKernelTunables(runDir);
  const run: E2eRun = {
    runDir,
    runId: `${spec.runIdPrefix}${randomBytes(3).toString('hex')}`,
    images: await testImages(),
    log,
    aborted: () => interrupted,
  };
  const chainsBefore = portmapChains();
  for (const runtime of spec.runtimes) {
    if (interrupted) break;
    spec.results[runtime] = await spec.runOn(runtime, run);
  }
  let chainsLeft: string | undefined;
  try {
    removePortmapChains(chainsBefore);
  } catch (err) {
    chainsLeft = err instanceof Error ? err.message : String(err);
    log(chainsLeft);
  }
  const failed = Object.values(spec.results).some(
    (r) => r.fatal !== undefined || r.cleanupFailures.length > 0 || Object.values(r.outcomes).some((o) => 'ok' in o && !o.ok),
  );
  // A failed check is read from the daemons' and kubelets' own logs: keep those.
  finishRunDir(runDir, failed, spec.keptLogsDir(run.runId), log);
  spec.finish();
  return interrupted ? 130 : failed || chainsLeft !== undefined ? 1 : 0;
}

/** Exits with what `main` resolves with; a rejection is a usage or set-up error (exit 2). */
export function exitWith(main: () => Promise<number>, name: string, usage: string): void {
  main().then(
    (code) => process.exit(code),
    (err: unknown) => {
      e2eLog(name)(err instanceof Error ? err.message : String(err));
      process.stderr.write(usage);
      process.exit(2);
    },
  );
}

// `make e2e`: a real kubelet (1.20, built from Debian's source by hack/e2e/build_kubelet.sh) runs
// the same pod manifests on berth and on a private containerd 1.6, one runtime after the other,
// and prints which checks passed on each plus per-pod startup latency. The whole run is inside a
// private mount namespace (private_mounts.ts); everything it starts is undone at the end.
//   node dist/test/e2e/main.js --kubelet PATH [--runtime berth|containerd] [--check a1,b2,...]
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../../internal/api/cri';
import { CHECKS } from './checks';
import type { Check } from './check';
import { renderTable, writeReport, type E2eReport } from './report';
import { runOnRuntime } from './run_runtime';
import type { RuntimeName } from './runtimes';
import { parseRunnerArgs } from './runner_args';
import { exitWith, runE2e } from './runner';

const USAGE = 'usage: e2e --kubelet PATH [--runtime berth|containerd] [--check ID[,ID...]]\n';

interface Args {
  kubelet: string;
  runtimes: RuntimeName[];
  checks: Check[];
}

function parseArgs(argv: string[]): Args {
  const { target: kubelet, runtimes, checks } = parseRunnerArgs(argv, '--kubelet', process.env.KUBELET ?? '', CHECKS);
  if (!kubelet || !existsSync(kubelet)) throw new Error(`kubelet binary ${JSON.stringify(kubelet)} not found (make e2e builds it)`);
  return { kubelet, runtimes, checks };
}

async function main(): Promise<number> {
  const args = parseArgs(process.argv.slice(2));
  const { checks } = args;
  const report: E2eReport = { startedAt: new Date().toISOString(), kubelet: args.kubelet, checks: checks.map(({ id, title }) => ({ id, title })), results: {} };
  return runE2e({
    name: 'e2e',
    runIdPrefix: '',
    runtimes: args.runtimes,
    results: report.results,
    runOn: (runtime, run) =>
      runOnRuntime(runtime, {
        kubeletBinary: args.kubelet,
        runDir: run.runDir,
        runId: run.runId,
        images: [run.images.pauseOci, run.images.busyboxOci],
        checks,
        log: run.log,
        aborted: run.aborted,
      }),
    keptLogsDir: (runId) => join(repoRoot(), '.cache', 'e2e', 'logs', runId),
    finish: () => {
      process.stdout.write(`${renderTable(report, args.runtimes)}\n`);
      process.stdout.write(`written: ${writeReport(join(repoRoot(), '.cache', 'e2e'), report)}\n`);
    },
  });
}

exitWith(main, 'e2e', USAGE);

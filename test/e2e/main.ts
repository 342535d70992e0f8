// `make e2e`: a real kubelet (1.20, built from Debian's source by hack/e2e/build_kubelet.sh) runs
// the same pod manifests on berth and on a private containerd 1.6, one runtime after the other,
// and prints which checks passed on each plus per-pod startup latency. The whole run is inside a
// private mount namespace (private_mounts.ts); everything it starts is undone at the end.
//   node dist/test/e2e/main.js --kubelet PATH [--runtime berth|containerd] [--check a1,b2,...]
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../../internal/api/cri';
import { testImages } from '../harness/images';
import { CHECKS } from './checks';
import { portmapChains, removePortmapChains } from './portmap_chains';
import { bindKernelTunables, reexecInPrivateMountNamespace } from './private_mounts';
import { renderTable, writeReport, type E2eReport } from './report';
import { runOnRuntime } from './run_runtime';
import type { RuntimeName } from './runtimes';
import { parseRunnerArgs } from './runner_args';
import { finishRunDir } from './run_dir';

const USAGE = 'usage: e2e --kubelet PATH [--runtime berth|containerd] [--check ID[,ID...]]\n';

interface Args {
  kubelet: string;
  runtimes: RuntimeName[];
  checkIds?: string[];
}

function parseArgs(argv: string[]): Args {
  const { target: kubelet, runtimes, checkIds } = parseRunnerArgs(argv, '--kubelet', process.env.KUBELET ?? '', CHECKS);
  if (!kubelet || !existsSync(kubelet)) throw new Error(`kubelet binary ${JSON.stringify(kubelet)} not found (make e2e builds it)`);
  return { kubelet, runtimes, checkIds };
}

const log = (line: string) => process.stderr.write(`e2e: ${line}\n`);

async function main(): Promise<number> {
  const args = parseArgs(process.argv.slice(2));
  const outer = reexecInPrivateMountNamespace();
  if (outer !== undefined) return outer;
  let interrupted = false;
  const onSignal = (sig: string) => {
    log(`${sig}: finishing the current check, then cleaning up`);
    interrupted = true;
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const runDir = mkdtempSync(join(tmpdir(), 'berth-e2e-'));
  bindKernelTunables(runDir);
  const images = await testImages();
  const checks = args.checkIds ? CHECKS.filter((c) => args.checkIds!.includes(c.id)) : CHECKS;
  const report: E2eReport = { startedAt: new Date().toISOString(), kubelet: args.kubelet, checks: checks.map(({ id, title }) => ({ id, title })), results: {} };
  const runId = randomBytes(3).toString('hex');
  const chainsBefore = portmapChains();
  for (const runtime of args.runtimes) {
    if (interrupted) break;
    report.results[runtime] = await runOnRuntime(runtime, {
      kubeletBinary: args.kubelet,
      runDir,
      runId,
      images: [images.pauseOci, images.busyboxOci],
      checks,
      log,
      aborted: () => interrupted,
    });
  }
  let chainsLeft: string | undefined;
  try {
    removePortmapChains(chainsBefore);
  } catch (err) {
    chainsLeft = err instanceof Error ? err.message : String(err);
    log(chainsLeft);
  }
  const failed = Object.values(report.results).some((r) => r.fatal !== undefined || r.cleanupFailures.length > 0 || Object.values(r.outcomes).some((o) => 'ok' in o && !o.ok));
  // A failed check is read from the kubelet's and the runtime's own logs: keep those.
  finishRunDir(runDir, failed, join(repoRoot(), '.cache', 'e2e', 'logs', runId), log);
  process.stdout.write(`${renderTable(report, args.runtimes)}\n`);
  process.stdout.write(`written: ${writeReport(join(repoRoot(), '.cache', 'e2e'), report)}\n`);
  return interrupted ? 130 : failed || chainsLeft !== undefined ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    log(err instanceof Error ? err.message : String(err));
    process.stderr.write(USAGE);
    process.exit(2);
  },
);

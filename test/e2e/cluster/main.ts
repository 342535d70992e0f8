// `make e2e-cluster`: a one-node Kubernetes 1.20 cluster on 127.0.0.1 (etcd, kube-apiserver,
// kube-controller-manager, kube-scheduler and a kubelet, built by hack/e2e/build_cluster.sh) run
// once per runtime, berth then a private containerd 1.6, and driven with kubectl as a user drives
// it; prints which checks passed on each. Like make e2e, the run lives in a private mount
// namespace (../private_mounts.ts) and undoes everything it started.
//   node dist/test/e2e/cluster/main.js --bin DIR [--runtime berth|containerd] [--check k1,k2,...]
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../../../internal/api/cri';
import { testImages } from '../../harness/images';
import { portmapChains, removePortmapChains } from '../portmap_chains';
import { bindKernelTunables, reexecInPrivateMountNamespace } from '../private_mounts';
import type { RuntimeName } from '../runtimes';
import { parseRunnerArgs } from '../runner_args';
import { CLUSTER_CHECKS } from './checks';
import { renderClusterTable, writeClusterReport, type ClusterReport } from './cluster_report';
import { clusterBinaries, type ClusterBinaries } from './control_plane';
import { runClusterOnRuntime } from './run_cluster';
import { finishRunDir } from '../run_dir';

const USAGE = 'usage: e2e-cluster --bin DIR [--runtime berth|containerd] [--check ID[,ID...]]\n';

interface Args {
  bin: ClusterBinaries;
  runtimes: RuntimeName[];
  checkIds?: string[];
}

function parseArgs(argv: string[]): Args {
  const { target: binDir, runtimes, checkIds } = parseRunnerArgs(argv, '--bin', '', CLUSTER_CHECKS);
  const bin = clusterBinaries(binDir);
  const missing = Object.entries(bin).filter(([k, path]) => k !== 'dir' && !existsSync(path)).map(([, path]) => path);
  if (!binDir || missing.length > 0) throw new Error(`cluster binaries missing: ${missing.join(', ') || '--bin not given'} (make e2e-cluster builds them)`);
  return { bin, runtimes, checkIds };
}

const log = (line: string) => process.stderr.write(`e2e-cluster: ${line}\n`);

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
  const runDir = mkdtempSync(join(tmpdir(), 'berth-e2e-cluster-'));
  bindKernelTunables(runDir);
  const images = await testImages();
  const checks = args.checkIds ? CLUSTER_CHECKS.filter((c) => args.checkIds!.includes(c.id)) : CLUSTER_CHECKS;
  const report: ClusterReport = { startedAt: new Date().toISOString(), binaries: args.bin.dir, checks: checks.map(({ id, title }) => ({ id, title })), results: {} };
  // The cgroup root is /berth-bench-e2e<runId>-<runtime>: "c" keeps it apart from make e2e's.
  const runId = `c${randomBytes(3).toString('hex')}`;
  const chainsBefore = portmapChains();
  for (const runtime of args.runtimes) {
    if (interrupted) break;
    report.results[runtime] = await runClusterOnRuntime(runtime, {
      bin: args.bin,
      runDir,
      runId,
      images: [images.pauseOci, images.busyboxOci, images.busyboxDocker],
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
  // A failed check is read from the daemons' own logs: keep those.
  finishRunDir(runDir, failed, join(repoRoot(), '.cache', 'e2e', 'cluster', 'logs', runId), log);
  process.stdout.write(`${renderClusterTable(report, args.runtimes)}\n`);
  process.stdout.write(`written: ${writeClusterReport(join(repoRoot(), '.cache', 'e2e', 'cluster', 'reports'), report)}\n`);
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

// `make e2e-cluster`: a one-node Kubernetes 1.20 cluster on 127.0.0.1 (etcd, kube-apiserver,
// kube-controller-manager, kube-scheduler and a kubelet, built by hack/e2e/build_cluster.sh) run
// once per runtime, berth then a private containerd 1.6, and driven with kubectl as a user drives
// it; prints which checks passed on each. Like make e2e, the run lives in a private mount
// namespace (../private_mounts.ts) and undoes everything it started.
//   node dist/test/e2e/cluster/main.js --bin DIR [--runtime berth|containerd] [--check k1,k2,...]
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../../../internal/api/cri';
import type { RuntimeName } from '../runtimes';
import { parseRunnerArgs } from '../runner_args';
import { exitWith, runE2e } from '../runner';
import { CLUSTER_CHECKS } from './checks';
import type { ClusterCheck } from './cluster_check';
import { renderClusterTable, writeClusterReport, type ClusterReport } from './cluster_report';
import { clusterBinaries, type ClusterBinaries } from './control_plane';
import { runClusterOnRuntime } from './run_cluster';

const USAGE = 'usage: e2e-cluster --bin DIR [--runtime berth|containerd] [--check ID[,ID...]]\n';

interface Args {
  bin: ClusterBinaries;
  runtimes: RuntimeName[];
  checks: ClusterCheck[];
}

function parseArgs(argv: string[]): Args {
  const { target: binDir, runtimes, checks } = parseRunnerArgs(argv, '--bin', '', CLUSTER_CHECKS);
  const bin = clusterBinaries(binDir);
  const missing = Object.entries(bin).filter(([k, path]) => k !== 'dir' && !existsSync(path)).map(([, path]) => path);
  if (!binDir || missing.length > 0) throw new Error(`cluster binaries missing: ${missing.join(', ') || '--bin not given'} (make e2e-cluster builds them)`);
  return { bin, runtimes, checks };
}

async function main(): Promise<number> {
  const args = parseArgs(process.argv.slice(2));
  const { checks } = args;
  const report: ClusterReport = { startedAt: new Date().toISOString(), binaries: args.bin.dir, checks: checks.map(({ id, title }) => ({ id, title })), results: {} };
  return runE2e({
    name: 'e2e-cluster',
    // The cgroup root is /berth-bench-e2e<runId>-<runtime>: "c" keeps it apart from make e2e's.
    runIdPrefix: 'c',
    runtimes: args.runtimes,
    results: report.results,
    runOn: (runtime, run) =>
      runClusterOnRuntime(runtime, {
        bin: args.bin,
        runDir: run.runDir,
        runId: run.runId,
        images: [run.images.pauseOci, run.images.busyboxOci, run.images.busyboxDocker],
        checks,
        log: run.log,
        aborted: run.aborted,
      }),
    keptLogsDir: (runId) => join(repoRoot(), '.cache', 'e2e', 'cluster', 'logs', runId),
    finish: () => {
      process.stdout.write(`${renderClusterTable(report, args.runtimes)}\n`);
      process.stdout.write(`written: ${writeClusterReport(join(repoRoot(), '.cache', 'e2e', 'cluster', 'reports'), report)}\n`);
    },
  });
}

exitWith(main, 'e2e-cluster', USAGE);

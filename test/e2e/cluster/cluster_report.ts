// The cluster run's result: each check passed/failed on each runtime and the named waits a user
// sees (e.g. "kubectl run -> pod Ready"), side by side as make e2e prints them; the JSON, failure
// messages in full, is kept under .cache/e2e/cluster/reports/.
import { renderResults, writeReportFile, type RuntimeResult } from '../report';
import type { RuntimeName } from '../runtimes';

export interface ClusterReport {
  startedAt: string;
  binaries: string;
  checks: { id: string; title: string }[];
  results: Partial<Record<RuntimeName, RuntimeResult>>;
}

export function renderClusterTable(report: ClusterReport, runtimes: readonly RuntimeName[]): string {
  return renderResults(report, runtimes, (wait) => `time: ${wait}`);
}

export function writeClusterReport(dir: string, report: ClusterReport): string {
  return writeReportFile(dir, 'cluster', report);
}

// The cluster run's result: each check passed/failed on each runtime and the named waits a user
// sees (e.g. "kubectl run -> pod Ready"), side by side as make e2e prints them; the JSON, failure
// messages in full, is kept under .cache/e2e/cluster/reports/.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Outcome, RuntimeResult } from '../report';
import type { RuntimeName } from '../runtimes';

export interface ClusterReport {
  startedAt: string;
  binaries: string;
  checks: { id: string; title: string }[];
  results: Partial<Record<RuntimeName, RuntimeResult>>;
}

const cell = (o: Outcome | undefined): string => (!o ? '-' : 'skipped' in o ? 'skipped' : o.ok ? 'pass' : 'FAIL');

function pad(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  const fmt = (r: string[]) => r.map((c, i) => c.padEnd(widths[i]!)).join(' | ').trimEnd();
  return [fmt(rows[0]!), widths.map((w) => '-'.repeat(w)).join('-|-'), ...rows.slice(1).map(fmt)].join('\n');
}

export function renderClusterTable(report: ClusterReport, runtimes: readonly RuntimeName[]): string {
  const rows: string[][] = [['check', ...runtimes]];
  for (const c of report.checks) rows.push([`${c.id} ${c.title}`, ...runtimes.map((r) => cell(report.results[r]?.outcomes[c.id]))]);
  const waits = [...new Set(runtimes.flatMap((r) => Object.keys(report.results[r]?.latencies ?? {})))];
  for (const w of waits) {
    rows.push([`time: ${w}`, ...runtimes.map((r) => {
      const ms = report.results[r]?.latencies[w];
      return ms === undefined ? '-' : `${Math.round(ms)} ms`;
    })]);
  }
  const lines = [pad(rows)];
  for (const r of runtimes) {
    const res = report.results[r];
    if (!res) continue;
    if (res.fatal) lines.push(`${r}: could not run: ${res.fatal}`);
    for (const [id, o] of Object.entries(res.outcomes)) if ('ok' in o && !o.ok) lines.push(`${r} ${id}: ${o.error}`);
    for (const f of res.cleanupFailures) lines.push(`${r} cleanup: ${f}`);
  }
  return lines.join('\n');
}

export function writeClusterReport(dir: string, report: ClusterReport): string {
  mkdirSync(dir, { recursive: true });
  const text = JSON.stringify(report, null, 2) + '\n';
  const path = join(dir, `cluster-${report.startedAt.replace(/[:.]/g, '-')}.json`);
  writeFileSync(path, text);
  writeFileSync(join(dir, 'latest.json'), text);
  return path;
}

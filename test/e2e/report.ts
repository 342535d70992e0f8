// The run's result: each check passed/failed on each runtime, and each pod's startup latency
// (manifest written -> all containers Ready), as one side-by-side table; the JSON is kept under
// .cache/e2e/reports/ with the failure messages in full.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RuntimeName } from './runtimes';

export type Outcome = { ok: true; ms: number } | { ok: false; ms: number; error: string } | { skipped: string };

export interface RuntimeResult {
  outcomes: Record<string, Outcome>;
  latencies: Record<string, number>;
  /** Why the runtime (or its kubelet) could not run at all. */
  fatal?: string;
  cleanupFailures: string[];
}

export interface E2eReport {
  startedAt: string;
  kubelet: string;
  checks: { id: string; title: string }[];
  results: Partial<Record<RuntimeName, RuntimeResult>>;
}

function cell(o: Outcome | undefined): string {
  if (!o) return '-';
  if ('skipped' in o) return `skipped`;
  return o.ok ? 'pass' : 'FAIL';
}

function pad(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  const fmt = (r: string[]) => r.map((c, i) => c.padEnd(widths[i]!)).join(' | ').trimEnd();
  return [fmt(rows[0]!), widths.map((w) => '-'.repeat(w)).join('-|-'), ...rows.slice(1).map(fmt)].join('\n');
}

/** The table of checks (rows) by runtime (columns), then one row per latency `label`led, then failures. */
export function renderResults(
  report: { checks: { id: string; title: string }[]; results: Partial<Record<RuntimeName, RuntimeResult>> },
  runtimes: readonly RuntimeName[],
  label: (latency: string) => string,
): string {
  const rows: string[][] = [['check', ...runtimes]];
  for (const c of report.checks) rows.push([`${c.id} ${c.title}`, ...runtimes.map((r) => cell(report.results[r]?.outcomes[c.id]))]);
  const names = [...new Set(runtimes.flatMap((r) => Object.keys(report.results[r]?.latencies ?? {})))];
  for (const name of names) {
    rows.push([label(name), ...runtimes.map((r) => {
      const ms = report.results[r]?.latencies[name];
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

export function renderTable(report: E2eReport, runtimes: readonly RuntimeName[]): string {
  return renderResults(report, runtimes, (pod) => `startup ${pod} (written -> Ready)`);
}

/** Writes `report` as JSON to <dir>/<prefix>-<startedAt>.json and <dir>/latest.json; returns the first. */
export function writeReportFile(dir: string, prefix: string, report: { startedAt: string }): string {
  mkdirSync(dir, { recursive: true });
  const text = JSON.stringify(report, null, 2) + '\n';
  const path = join(dir, `${prefix}-${report.startedAt.replace(/[:.]/g, '-')}.json`);
  writeFileSync(path, text);
  writeFileSync(join(dir, 'latest.json'), text);
  return path;
}

export function writeReport(cacheDir: string, report: E2eReport): string {
  return writeReportFile(join(cacheDir, 'reports'), 'e2e', report);
}

// The bench's result: one row per figure with a cell per peer, printed as a table (figure |
// containerd | berth | berth/containerd | floor) and written as JSON to <repo>/.bench/.
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, release, totalmem } from 'node:os';
import { join } from 'node:path';
import { isUnimplemented, messageOf } from './errors';
import type { PeerName } from './peers/peer';

/** A measured value, or why there is none (an error is a failure of the run, UNIMPLEMENTED is not). */
export type Cell = { value: number } | { na: string; error?: boolean };

export interface Row {
  scenario: string;
  figure: string;
  unit: string;
  containerd: Cell;
  berth: Cell;
  /**
   * The same work with no daemon: runc alone beside StartContainer, the bare Node process with
   * berthd's modules beside berthd's RSS, a bare grpc-js server giving berthd's answers beside the
   * scale scenario's calls, `bin/berthd --help` (Node and berthd's modules loaded) beside a restart.
   */
  floor?: number;
  /** Samples behind each value, for the JSON. */
  samples?: Partial<Record<PeerName, number>>;
}

export interface BenchReport {
  startedAt: string;
  finishedAt: string;
  host: { kernel: string; cpus: number; cpuModel: string; memoryMiB: number; node: string };
  options: Record<string, unknown>;
  rows: Row[];
  notes: string[];
}

export const value = (v: number): Cell => ({ value: v });

/** The cell for a peer that failed: UNIMPLEMENTED is n/a, anything else is an error. */
export function cellFromError(err: unknown): Cell {
  if (isUnimplemented(err)) return { na: `n/a (UNIMPLEMENTED${rpcOf(err)})` };
  return { na: `error: ${messageOf(err)}`, error: true };
}

function rpcOf(err: unknown): string {
  const rpc = (err as { rpc?: unknown }).rpc;
  return typeof rpc === 'string' ? `: ${rpc}` : '';
}

export function hostInfo(): BenchReport['host'] {
  const cpu = cpus();
  return {
    kernel: release(),
    cpus: cpu.length,
    cpuModel: cpu[0]?.model ?? 'unknown',
    memoryMiB: Math.round(totalmem() / 2 ** 20),
    node: process.version,
  };
}

function formatNumber(v: number, unit: string): string {
  const digits = Number.isInteger(v) || Math.abs(v) >= 100 ? 0 : Math.abs(v) >= 10 ? 1 : 2;
  return `${v.toFixed(digits)} ${unit}`;
}

function formatCell(cell: Cell, unit: string): string {
  if ('value' in cell) return formatNumber(cell.value, unit);
  return cell.na.length > 48 ? `${cell.na.slice(0, 45)}...` : cell.na;
}

function ratio(row: Row): string {
  if (!('value' in row.containerd) || !('value' in row.berth) || row.containerd.value === 0) return '';
  return `${(row.berth.value / row.containerd.value).toFixed(2)}x`;
}

/** The text table, one line per row, columns padded. */
export function renderTable(rows: readonly Row[]): string {
  const header = ['figure', 'containerd', 'berth', 'berth/containerd', 'floor (runc / Node / gRPC)'];
  const lines = rows.map((r) => [
    `${r.scenario}: ${r.figure}`,
    formatCell(r.containerd, r.unit),
    formatCell(r.berth, r.unit),
    ratio(r),
    r.floor === undefined ? '' : formatNumber(r.floor, r.unit),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const fmt = (cols: string[]) => cols.map((c, i) => c.padEnd(widths[i]!)).join(' | ').trimEnd();
  return [fmt(header), widths.map((w) => '-'.repeat(w)).join('-|-'), ...lines.map(fmt)].join('\n');
}

/** Writes .bench/bench-<timestamp>.json and .bench/latest.json; returns the timestamped path. */
export function writeReport(repo: string, report: BenchReport): string {
  const dir = join(repo, '.bench');
  mkdirSync(dir, { recursive: true });
  const text = JSON.stringify(report, null, 2) + '\n';
  const path = join(dir, `bench-${report.startedAt.replace(/[:.]/g, '-')}.json`);
  writeFileSync(path, text);
  writeFileSync(join(dir, 'latest.json'), text);
  return path;
}

export const hasErrors = (rows: readonly Row[]): boolean =>
  rows.some((r) => ('error' in r.containerd && r.containerd.error) || ('error' in r.berth && r.berth.error));

// The listing flags `pods` and `ps` share with crictl: name/namespace regexps, labels, latest/last.
import { UsageError } from '../errors';

export interface ListOptions {
  output: string;
  id?: string;
  name?: string;
  namespace?: string;
  state?: string;
  label?: string[];
  verbose?: boolean;
  quiet?: boolean;
  latest?: boolean;
  last?: string;
  noTrunc?: boolean;
}

/** key=value labels (crictl's parseLabelStringSlice). */
export function labelSelector(labels: string[] = []): Record<string, string> {
  const out: Record<string, string> = {};
  for (const label of labels) {
    const pair = label.split('=');
    if (pair.length !== 2) throw new UsageError(`incorrectly specified label: ${label}`);
    out[pair[0]!] = pair[1]!;
  }
  return out;
}

export function matchesRegex(pattern: string | undefined, target: string): boolean {
  if (pattern === undefined || pattern === '') return true;
  try {
    return new RegExp(pattern).test(target);
  } catch {
    return false; // crictl: an invalid pattern matches nothing
  }
}

/** Newest first, then at most --last N (or 1 with --latest). */
export function newestFirst<T extends { created_at: string }>(items: T[], opts: ListOptions): T[] {
  const sorted = [...items].sort((a, b) => (BigInt(b.created_at) > BigInt(a.created_at) ? 1 : BigInt(b.created_at) < BigInt(a.created_at) ? -1 : 0));
  const last = opts.last === undefined ? 0 : Number(opts.last);
  if (!Number.isInteger(last) || last < 0) throw new UsageError(`--last: not a count: ${opts.last}`);
  const n = opts.latest ? 1 : last > 0 ? last : sorted.length;
  return sorted.slice(0, n);
}

export function sortedEntries(map: Record<string, string>): Array<[string, string]> {
  return Object.entries(map).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** "Labels:\n\tk -> v\n" blocks of crictl's verbose listings; nothing for an empty map. */
export function mapBlock(title: string, map: Record<string, string>): string {
  const entries = sortedEntries(map);
  if (entries.length === 0) return '';
  return `${title}:\n${entries.map(([k, v]) => `\t${k} -> ${v}\n`).join('')}`;
}

// How berthctl prints: `-o json|yaml|table` as crictl takes it, tables laid out like crictl's
// tabwriter (columns at least 20 wide, 3 spaces of padding, no borders), JSON indented by two.
import { UsageError } from './errors';

export type OutputFormat = 'json' | 'yaml' | 'table';

/** Checks an -o value against the formats a verb supports. */
export function outputFormat(value: string, allowed: readonly OutputFormat[]): OutputFormat {
  if ((allowed as readonly string[]).includes(value)) return value as OutputFormat;
  throw new UsageError(`unsupported output format ${JSON.stringify(value)}: one of ${allowed.join('|')}`);
}

export function write(text: string): void {
  process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
}

/** JSON or YAML of a plain object; yaml is loaded only when asked for. */
export function printStructured(value: unknown, format: 'json' | 'yaml'): void {
  if (format === 'json') {
    write(JSON.stringify(value, null, 2));
    return;
  }
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const YAML = require('yaml') as typeof import('yaml');
  write(YAML.stringify(value));
}

const MIN_WIDTH = 20;
const PADDING = 3;

/** Rows as crictl's tabwriter prints them: every column but the last padded to its width. */
export function table(rows: string[][]): string {
  if (rows.length === 0) return '';
  const columns = Math.max(...rows.map((r) => r.length));
  const widths = Array.from({ length: columns }, (_, i) => Math.max(MIN_WIDTH, ...rows.map((r) => (r[i] ?? '').length + PADDING)));
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const Table = require('cli-table3') as typeof import('cli-table3');
  const t = new Table({
    chars: {
      top: '', 'top-mid': '', 'top-left': '', 'top-right': '', bottom: '', 'bottom-mid': '', 'bottom-left': '', 'bottom-right': '',
      left: '', 'left-mid': '', mid: '', 'mid-mid': '', right: '', 'right-mid': '', middle: '',
    },
    style: { 'padding-left': 0, 'padding-right': 0, head: [], border: [], compact: true },
    colWidths: widths,
    wordWrap: false,
  });
  for (const row of rows) t.push(Array.from({ length: columns }, (_, i) => row[i] ?? ''));
  return `${t
    .toString()
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n')}\n`;
}

// What the metrics tests share: scraping berthd's /metrics, a parser for the Prometheus text
// exposition format (what a Prometheus server reads) and the address berthd logged for its endpoint.
import * as http from 'node:http';

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Exposition {
  samples: Sample[];
  /** # TYPE lines: metric family name -> counter, gauge, histogram, ... */
  types: Map<string, string>;
}

function unescapeLabel(v: string): string {
  return v.replace(/\\(["\\n])/g, (_, c: string) => (c === 'n' ? '\n' : c));
}

/** A sample value as Prometheus reads it (Go's ParseFloat: NaN and Inf in any case; prom-client writes "Nan"). */
function parseValue(raw: string, line: string): number {
  const special = raw.toLowerCase();
  if (special === 'nan') return NaN;
  if (special === '+inf' || special === 'inf') return Infinity;
  if (special === '-inf') return -Infinity;
  const v = Number(raw);
  if (raw.trim() === '' || Number.isNaN(v)) throw new Error(`bad value in ${JSON.stringify(line)}`);
  return v;
}

/** Parses the text format; throws on a line that is neither a comment nor a well-formed sample. */
export function parseExposition(text: string): Exposition {
  const samples: Sample[] = [];
  const types = new Map<string, string>();
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const type = /^# TYPE ([a-zA-Z_:][a-zA-Z0-9_:]*) (\w+)$/.exec(line);
    if (type) {
      types.set(type[1]!, type[2]!);
      continue;
    }
    if (line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{((?:[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\]|\\.)*",?)*)\})? (\S+)(?: -?\d+)?$/.exec(line);
    if (!m) throw new Error(`not a sample line: ${JSON.stringify(line)}`);
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[l[1]!] = unescapeLabel(l[2]!);
    samples.push({ name: m[1]!, labels, value: parseValue(m[3]!, line) });
  }
  return { samples, types };
}

/** The samples of `name` whose labels include `labels`. */
export function find(e: Exposition, name: string, labels: Record<string, string> = {}): Sample[] {
  return e.samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
}

/** The one sample of `name` with exactly these labels (0 when the series does not exist yet). */
export function value(e: Exposition, name: string, labels: Record<string, string> = {}): number {
  const hits = e.samples.filter(
    (s) => s.name === name && Object.keys(s.labels).length === Object.keys(labels).length && Object.entries(labels).every(([k, v]) => s.labels[k] === v),
  );
  if (hits.length > 1) throw new Error(`${name} ${JSON.stringify(labels)}: ${hits.length} series`);
  return hits[0]?.value ?? 0;
}

export function httpGet(url: string): Promise<{ status: number; contentType: string; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, contentType: String(res.headers['content-type'] ?? ''), body }));
      })
      .on('error', reject);
  });
}

export async function scrape(address: string): Promise<Exposition> {
  const res = await httpGet(`http://${address}/metrics`);
  if (res.status !== 200) throw new Error(`GET /metrics answered ${res.status}: ${res.body}`);
  return parseExposition(res.body);
}

/** The "host:port" of berthd's "metrics serving" log line. */
export function metricsAddress(stderr: string): string {
  for (const line of stderr.split('\n')) {
    if (!line.includes('"metrics serving"')) continue;
    const entry = JSON.parse(line) as { address?: string };
    if (entry.address) return entry.address;
  }
  throw new Error(`berthd logged no "metrics serving" line:\n${stderr.slice(-3000)}`);
}

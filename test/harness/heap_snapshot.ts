// A berthd's V8 heap, counted by constructor: the daemon runs with --heapsnapshot-signal (through
// NODE_OPTIONS, as heapSnapshotEnv gives it) and writes a snapshot, after a full GC, when sent
// SIGUSR2. What a test counts is what berthd still holds, not what it allocated.
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** The environment that makes a berthd write heap snapshots into `dir` on SIGUSR2. */
export function heapSnapshotEnv(dir: string): NodeJS.ProcessEnv {
  mkdirSync(dir, { recursive: true });
  return { NODE_OPTIONS: `--heapsnapshot-signal=SIGUSR2 --diagnostic-dir=${dir}` };
}

interface Snapshot {
  snapshot: { meta: { node_fields: string[]; node_types: [string[], ...unknown[]] } };
  nodes: number[];
  strings: string[];
}

/** Has process `pid` write a snapshot into `dir` and counts its objects by constructor name. */
export async function heapObjectCounts(pid: number, dir: string): Promise<Map<string, number>> {
  for (const name of readdirSync(dir)) rmSync(join(dir, name), { force: true });
  process.kill(pid, 'SIGUSR2');
  // Written by the daemon's main thread in one go; read once it parses (a guard against hanging).
  for (let tries = 0; tries < 600; tries++) {
    await sleep(100);
    const name = readdirSync(dir).find((n) => n.endsWith('.heapsnapshot'));
    if (name === undefined) continue;
    let parsed: Snapshot;
    try {
      parsed = JSON.parse(readFileSync(join(dir, name), 'utf8')) as Snapshot;
    } catch {
      continue; // still being written
    }
    return countObjects(parsed);
  }
  throw new Error(`no heap snapshot from pid ${pid} in ${dir}`);
}

function countObjects({ snapshot, nodes, strings }: Snapshot): Map<string, number> {
  const fields = snapshot.meta.node_fields;
  const stride = fields.length;
  const typeAt = fields.indexOf('type');
  const nameAt = fields.indexOf('name');
  const objectType = snapshot.meta.node_types[0].indexOf('object');
  const counts = new Map<string, number>();
  for (let i = 0; i < nodes.length; i += stride) {
    if (nodes[i + typeAt] !== objectType) continue;
    const name = strings[nodes[i + nameAt]!]!;
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return counts;
}

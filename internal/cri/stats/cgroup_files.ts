// Reading cgroup pseudo-files. They are tiny and in memory, so they are read synchronously: one
// ListContainerStats reads a few hundred of them, and a thread-pool hop per file would cost more than
// the read. A cgroup removed under us (the container exited) reads as `undefined`, never an error.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { wrap } from '../../errdefs/errors';

/** The errors a vanished cgroup (or one never created) gives. */
function isGone(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENODEV' || code === 'ENOTDIR' || code === 'ESRCH';
}

/** The file's text, or undefined when the cgroup (or this file of it) is not there. */
export function readCgroupFile(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    if (isGone(err)) return undefined;
    throw wrap(err, `read cgroup file ${path}`);
  }
}

/** A file holding one unsigned integer (memory.usage_in_bytes, cpuacct.usage, ...). */
export function readCgroupUint(path: string): bigint | undefined {
  const text = readCgroupFile(path)?.trim();
  if (text === undefined) return undefined;
  if (!/^[0-9]+$/.test(text)) throw wrap(new Error(`not an unsigned integer: ${JSON.stringify(text)}`), `parse cgroup file ${path}`);
  return BigInt(text);
}

/**
 * "key value" lines (memory.stat, cpu.stat). With `keys`, only those are parsed (memory.stat has
 * dozens of lines and is read for every container on every poll); values that are not integers
 * are skipped.
 */
export function parseKeyedValues(text: string, keys?: ReadonlySet<string>): Map<string, bigint> {
  const values = new Map<string, bigint>();
  for (const line of text.split('\n')) {
    const space = line.indexOf(' ');
    if (space <= 0) continue;
    const key = line.slice(0, space);
    if (keys !== undefined && !keys.has(key)) continue;
    const value = line.slice(space + 1).trim();
    if (/^[0-9]+$/.test(value)) values.set(key, BigInt(value));
  }
  return values;
}

export function readKeyedValues(path: string, keys?: ReadonlySet<string>): Map<string, bigint> | undefined {
  const text = readCgroupFile(path);
  return text === undefined ? undefined : parseKeyedValues(text, keys);
}

/**
 * The processes (not threads: cgroup.procs lists thread-group leaders) in `dir` and the cgroups below
 * it; undefined when `dir` is gone. A child removed during the walk counts as empty.
 */
export function countProcesses(dir: string): number | undefined {
  const pids = new Set<string>();
  const walk = (d: string, top: boolean): boolean => {
    const procs = readCgroupFile(join(d, 'cgroup.procs'));
    if (procs === undefined) return !top;
    for (const line of procs.split('\n')) if (line !== '') pids.add(line);
    let entries;
    try {
      entries = readdirSync(d, { withFileTypes: true });
    } catch (err) {
      if (isGone(err)) return true;
      throw wrap(err, `list cgroup ${d}`);
    }
    for (const entry of entries) if (entry.isDirectory()) walk(join(d, entry.name), false);
    return true;
  };
  return walk(dir, true) ? pids.size : undefined;
}

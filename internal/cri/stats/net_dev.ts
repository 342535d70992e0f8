// Network counters of a network namespace, from /proc/<pid>/net/dev of a process inside it (the file
// always shows the reader's view of that pid's netns, so no setns is needed).
import { readFileSync, statSync } from 'node:fs';
import { wrap } from '../../errdefs/errors';

export interface InterfaceCounters {
  name: string;
  rxBytes: bigint;
  rxErrors: bigint;
  txBytes: bigint;
  txErrors: bigint;
}

/**
 * Parses /proc/net/dev: two header lines, then "name: <8 receive fields> <8 transmit fields>"
 * (bytes packets errs drop fifo frame compressed multicast | bytes packets errs drop fifo colls ...).
 */
export function parseNetDev(text: string): InterfaceCounters[] {
  const counters: InterfaceCounters[] = [];
  for (const line of text.split('\n')) {
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    const fields = line.slice(colon + 1).trim().split(/\s+/);
    if (fields.length < 16 || !fields.every((f) => /^[0-9]+$/.test(f))) continue;
    counters.push({
      name: line.slice(0, colon).trim(),
      rxBytes: BigInt(fields[0]!),
      rxErrors: BigInt(fields[2]!),
      txBytes: BigInt(fields[8]!),
      txErrors: BigInt(fields[10]!),
    });
  }
  return counters;
}

/** True when `pid` is (still) in the namespace pinned at `netnsPath`: guards against PID reuse. */
export function pidInNetns(pid: number, netnsPath: string): boolean {
  try {
    const ns = statSync(netnsPath);
    const own = statSync(`/proc/${pid}/ns/net`);
    return ns.dev === own.dev && ns.ino === own.ino;
  } catch {
    return false;
  }
}

/** The interfaces of `pid`'s network namespace; undefined when the process is gone. */
export function readNetDev(pid: number): InterfaceCounters[] | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/net/dev`, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ESRCH' || code === 'EINVAL') return undefined;
    throw wrap(err, `read network counters of pid ${pid}`);
  }
  return parseNetDev(text);
}

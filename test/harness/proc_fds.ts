// What a process has open, as `ls -l /proc/<pid>/fd` shows it.
import { readdirSync, readlinkSync } from 'node:fs';

/** The targets of `pid`'s open file descriptors ("/path", "socket:[inode]", "pipe:[inode]", ...). */
export function fdTargets(pid: number): string[] {
  const targets: string[] = [];
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      targets.push(readlinkSync(`/proc/${pid}/fd/${fd}`));
    } catch {
      // closed meanwhile
    }
  }
  return targets;
}

/** How many sockets (TCP, unix) `pid` has open. */
export function socketCount(pid: number): number {
  return fdTargets(pid).filter((target) => target.startsWith('socket:')).length;
}

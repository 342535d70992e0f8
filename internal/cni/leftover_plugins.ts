// CNI plugins a berthd that was killed (or cut off by its stop's grace period) left running for a
// pod: they outlive it, and one that ends after the restart's recovery ran the pod's DEL installs
// what nothing removes any more (a portmap DNAT rule to a freed IP, which sends a hostPort's
// traffic to whichever pod gets that IP next). They are found by the CNI_CONTAINERID every plugin
// exec carries in its environment (and its children inherit), and ended, process group and all
// (spawn.c gives each plugin its own), before that DEL, as containerd's cancelled context kills a
// plugin in flight. This berthd's own plugins (its children) are never taken for leftovers.
import { procFile, processIds } from '../sys/procfs';
import { setTimeout as sleep } from 'node:timers/promises';

const GONE_WAIT_MS = 2_000;

/** State letter, parent PID and start time from /proc/<pid>/stat (fields after the command's ')'). */
function statOf(pid: number): { ppid: number; state: string; start: string } | undefined {
  const stat = procFile(pid, 'stat');
  if (stat === undefined) return undefined;
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { state: fields[0] ?? '', ppid: Number(fields[1]), start: fields[19] ?? '' };
}

interface Leftover {
  pid: number;
  /** Its start time: a PID reused since it was found is not the same process. */
  start: string;
}

/** Processes, not this one's children, whose environment names `containerId` to a plugin. */
export function leftoverPlugins(containerId: string): Leftover[] {
  const marker = `CNI_CONTAINERID=${containerId}`;
  const found: Leftover[] = [];
  for (const pid of processIds()) {
    // Gone, or a kernel thread's (empty): no plugin.
    if (!procFile(pid, 'environ')?.split('\0').includes(marker)) continue;
    const stat = statOf(pid);
    if (stat && stat.ppid !== process.pid) found.push({ pid, start: stat.start });
  }
  return found;
}

const running = (pid: number) => {
  const stat = statOf(pid);
  return stat !== undefined && stat.state !== 'Z';
};

/**
 * SIGKILLs the leftover plugins of `containerId` with their process groups; returns their PIDs once
 * they are gone. Recovery calls it before berthd serves, so no plugin of its own is running.
 */
export async function endLeftoverPlugins(containerId: string): Promise<number[]> {
  const found = leftoverPlugins(containerId);
  const pids: number[] = [];
  for (const { pid, start } of found) {
    if (statOf(pid)?.start !== start) continue; // gone, and its PID perhaps another's now
    pids.push(pid);
    try {
      process.kill(-pid, 'SIGKILL'); // a plugin leads its own group
    } catch {
      try {
        process.kill(pid, 'SIGKILL'); // a child of one, or gone
      } catch {
        // gone meanwhile
      }
    }
  }
  for (const until = Date.now() + GONE_WAIT_MS; pids.some(running) && Date.now() < until; ) await sleep(20);
  return pids;
}

// CNI plugins a berthd that was killed (or cut off by its stop's grace period) left running for a
// pod: they outlive it, and one that ends after the restart's recovery ran the pod's DEL installs
// what nothing removes any more (a portmap DNAT rule to a freed IP, which sends a hostPort's
// traffic to whichever pod gets that IP next). They are found by the CNI_CONTAINERID every plugin
// exec carries in its environment (and its children inherit), and ended, process group and all
// (spawn.c gives each plugin its own), before that DEL, as containerd's cancelled context kills a
// plugin in flight. This berthd's own plugins (its children) are never taken for leftovers.
import { readdirSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

const GONE_WAIT_MS = 2_000;

/** The parent PID and state letter from /proc/<pid>/stat (fields after the command's ')'). */
function statOf(pid: number): { ppid: number; state: string } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { ppid: Number(ppid), state: state ?? '' };
  } catch {
    return undefined;
  }
}

/** PIDs of processes not this one's children whose environment names `containerId` to a plugin. */
export function leftoverPlugins(containerId: string, procDir = '/proc'): number[] {
  const marker = `CNI_CONTAINERID=${containerId}`;
  const found: number[] = [];
  for (const name of readdirSync(procDir)) {
    if (!/^\d+$/.test(name)) continue;
    let environ: string;
    try {
      environ = readFileSync(`${procDir}/${name}/environ`, 'latin1');
    } catch {
      continue; // gone, or a kernel thread
    }
    if (!environ.split('\0').includes(marker)) continue;
    const pid = Number(name);
    if (statOf(pid)?.ppid !== process.pid) found.push(pid);
  }
  return found;
}

const running = (pid: number) => {
  const stat = statOf(pid);
  return stat !== undefined && stat.state !== 'Z';
};

/** SIGKILLs the leftover plugins of `containerId` with their process groups; returns their PIDs once they are gone. */
export async function endLeftoverPlugins(containerId: string): Promise<number[]> {
  const pids = leftoverPlugins(containerId);
  for (const pid of pids) {
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

// Processes the bench can attribute to itself: RSS and CPU time of a PID, the shims serving one
// daemon, and killing a PID only while it is still the process we found (its start time guards
// against reuse).
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { basename } from 'node:path';

export const SHIM_BINARY_NAME = 'containerd-shim-runc-v2';

export interface ProcessRef {
  pid: number;
  /** Field 22 of /proc/<pid>/stat: clock ticks after boot; distinguishes a reused PID. */
  startTicks: string;
}

function readOr(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** Threads of a process that are not yet released (the Threads: line of /proc/<pid>/status), or undefined when it is gone. */
function threadCount(pid: number): number | undefined {
  const found = /^Threads:\s*(\d+)$/m.exec(readOr(`/proc/${pid}/status`) ?? '');
  return found ? Number(found[1]) : undefined;
}

/** Start time of a live process, or undefined once it is gone (or a zombie with every thread gone). */
function startTicksOf(pid: number): string | undefined {
  const stat = readOr(`/proc/${pid}/stat`);
  if (stat === undefined) return undefined;
  // comm (field 2) may hold spaces and parens: split after its closing paren.
  const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // The state is the main thread's: it is a zombie as soon as that thread has exited, while the
  // others may still run (and the last of them tear the memory down: ~10 ms for a Node daemon).
  // The process has exited once its parent could reap it: the main thread a zombie and alone.
  const exited = (rest[0] === 'Z' || rest[0] === 'X') && (threadCount(pid) ?? 1) <= 1;
  return exited ? undefined : rest[19]; // field 22 overall = index 19 after pid and comm
}

export function processRef(pid: number): ProcessRef | undefined {
  const startTicks = startTicksOf(pid);
  return startTicks === undefined ? undefined : { pid, startTicks };
}

export function isAlive(ref: ProcessRef): boolean {
  return startTicksOf(ref.pid) === ref.startTicks;
}

// USER_HZ, the unit of /proc/<pid>/stat's CPU times; 100 on every Linux build the bench runs on,
// asked of getconf once in case it is not.
let ticksPerSecond: number | undefined;
function clockTicks(): number {
  if (ticksPerSecond === undefined) {
    const text = execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim();
    ticksPerSecond = Number(text) > 0 ? Number(text) : 100;
  }
  return ticksPerSecond;
}

/** User + system CPU seconds a process has used (fields 14 and 15 of /proc/<pid>/stat), or undefined when it is gone. */
export function cpuSeconds(pid: number): number | undefined {
  const stat = readOr(`/proc/${pid}/stat`);
  if (stat === undefined) return undefined;
  const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(rest[11]) + Number(rest[12])) / clockTicks(); // fields 14, 15 overall
}

/** VmRSS of a process in KiB, or undefined when it is gone. */
export function rssKiB(pid: number): number | undefined {
  const status = readOr(`/proc/${pid}/status`);
  const m = status === undefined ? null : /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
  return m ? Number(m[1]) : undefined;
}

function cmdlineOf(pid: number): string[] {
  return (readOr(`/proc/${pid}/cmdline`) ?? '').split('\0').filter((a) => a !== '');
}

function linkOr(path: string): string {
  try {
    return readlinkSync(path);
  } catch {
    return '';
  }
}

/**
 * Shim processes that belong to one daemon: the shim binary running with its working directory
 * (the task bundle) under `dir`, or told `-address <socket>` of that daemon.
 */
export function shimsOf(dir: string, socket: string): ProcessRef[] {
  const found: ProcessRef[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const pid = Number(name);
    const exe = linkOr(`/proc/${pid}/exe`);
    const args = cmdlineOf(pid);
    if (basename(exe) !== SHIM_BINARY_NAME && basename(args[0] ?? '') !== SHIM_BINARY_NAME) continue;
    const cwd = linkOr(`/proc/${pid}/cwd`);
    const address = args[args.indexOf('-address') + 1];
    if (cwd.startsWith(`${dir}/`) || (args.includes('-address') && address === socket)) {
      const ref = processRef(pid);
      if (ref) found.push(ref);
    }
  }
  return found;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls until the process is gone; false after `timeoutMs`. */
export async function waitGone(ref: ProcessRef, timeoutMs: number): Promise<boolean> {
  for (let waited = 0; waited <= timeoutMs; waited += 50) {
    if (!isAlive(ref)) return true;
    await sleep(50);
  }
  return !isAlive(ref);
}

/** SIGTERM, then SIGKILL after `graceMs`, only while `ref` is still that process. */
export async function terminate(ref: ProcessRef, graceMs: number): Promise<void> {
  const send = (sig: NodeJS.Signals) => {
    if (!isAlive(ref)) return;
    try {
      process.kill(ref.pid, sig);
    } catch {
      // exited between the check and the signal
    }
  };
  send('SIGTERM');
  if (await waitGone(ref, graceMs)) return;
  send('SIGKILL');
  if (!(await waitGone(ref, 10_000))) throw new Error(`pid ${ref.pid} survived SIGKILL`);
}

// What the streaming attack and stress suites check of a real berthd after each round: its memory
// (from /proc/<pid>/status), that it still answers Version and runs a normal exec, and that no
// exec process it started is left behind in the container.
import { readFileSync, writeFileSync } from 'node:fs';
import type { ContainerSuite } from '../cri_containers/env';
import { streamExec, type Transport } from '../../harness/streaming_client';

/** How much more than before an attack berthd may hold, at its peak or after: generous on purpose. */
export const MEMORY_MARGIN_KIB = 64 * 1024;

function statusField(pid: number, field: string): number {
  const m = new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!m) throw new Error(`no ${field} in /proc/${pid}/status`);
  return Number(m[1]);
}

/** berthd's resident set now, in KiB. */
export const rssKiB = (pid: number) => statusField(pid, 'VmRSS');

/** berthd's peak resident set since the last resetPeak, in KiB. */
export const peakKiB = (pid: number) => statusField(pid, 'VmHWM');

/** Makes VmHWM start again from the current resident set (proc(5), clear_refs "5"). */
export const resetPeak = (pid: number) => writeFileSync(`/proc/${pid}/clear_refs`, '5');

/** Runs `attack` and returns berthd's RSS before, its peak during, and its RSS after, in KiB. */
export async function memoryAround(pid: number, attack: () => Promise<void>): Promise<{ before: number; peak: number; after: number }> {
  const before = rssKiB(pid);
  resetPeak(pid);
  await attack();
  return { before, peak: peakKiB(pid), after: rssKiB(pid) };
}

const exitedDaemons = new WeakSet<object>();

/** Call once per suite: from then on expectServing knows whether berthd has exited. */
export function watchExit(s: ContainerSuite): void {
  const daemon = s.daemon;
  void daemon.exited.then(() => exitedDaemons.add(daemon));
}

/**
 * `step`, or a failure naming `what` with berthd's last log lines once `ms` passed: a session that
 * never ends then says which step it stopped at and what berthd logged of it (debug level).
 */
export async function within<T>(s: ContainerSuite, what: string, step: Promise<T>, ms = 60_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: not done after ${ms} ms; berthd's log ends:\n${s.daemon.stderr().slice(-6000)}`)), ms);
  });
  try {
    return await Promise.race([step, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** berthd is still running, logged no uncaught error, answers Version and runs a normal exec over `transport` in container `id`. */
export async function expectServing(s: ContainerSuite, id: string, transport: Transport = 'spdy'): Promise<void> {
  if (exitedDaemons.has(s.daemon)) throw new Error(`berthd exited; its log ends:\n${s.daemon.stderr().slice(-3000)}`);
  // berthd's crash policy logs an error nothing caught and keeps serving: that still is a bug.
  const uncaught = s.daemon.stderr().match(/^.*"msg":"(uncaught exception|unhandled rejection)".*$/m);
  if (uncaught) throw new Error(`berthd logged: ${uncaught[0]}`);
  const deadline = { deadline: Date.now() + 30_000 };
  expect((await s.client.runtime.Version({ version: 'v1' }, deadline)).runtime_name).toBe('berth');
  const { url } = await s.client.runtime.Exec({ container_id: id, cmd: ['echo', 'still serving'], stdout: true, stderr: true }, deadline);
  const res = await streamExec(url, { transport });
  expect(res.stdout).toBe('still serving\n');
  expect(res.status?.status).toBe('Success');
}

/** How many processes in container `id` run exactly `args` (ps in the container). */
export async function processCount(s: ContainerSuite, id: string, args: string): Promise<number> {
  const res = await s.client.runtime.ExecSync({ container_id: id, cmd: ['sh', '-c', `ps -o args | grep -c "^${args}$" || true`], timeout: '10' });
  return Number(res.stdout.toString().trim());
}

/** Polls until no process runs `args` in the container (killing is asynchronous); returns the last count. */
export async function settledProcessCount(s: ContainerSuite, id: string, args: string): Promise<number> {
  const giveUp = Date.now() + 60_000;
  let count = await processCount(s, id, args);
  while (count !== 0 && Date.now() < giveUp) {
    await new Promise((r) => setTimeout(r, 200));
    count = await processCount(s, id, args);
  }
  return count;
}

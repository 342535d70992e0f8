// Spawns a daemon under test in its own process group (so a Ctrl-C in the terminal reaches only
// the bench, which then removes pods through CRI before stopping the daemon by PID), output to a
// log file in its dir, and waits until it answers CRI Version. On failure it kills what it started.
import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import { processRef, terminate, type ProcessRef } from '../procs';
import { waitForCriVersion } from './ready';

const SYSTEM_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

export interface SpawnedDaemon {
  ref: ProcessRef;
  logTail(): string;
}

export async function spawnDaemon(command: string, args: string[], socket: string, logPath: string): Promise<SpawnedDaemon> {
  const logFd = openSync(logPath, 'a');
  let child;
  try {
    child = spawn(command, args, {
      stdio: ['ignore', logFd, logFd],
      detached: true,
      env: { ...process.env, PATH: `${process.env.PATH ?? ''}:${SYSTEM_PATH}` },
    });
  } finally {
    closeSync(logFd);
  }
  const spawned = child;
  spawned.unref(); // the bench's cleanup, not the event loop, decides when it ends
  spawned.on('error', () => undefined); // surfaced below as "did not start"
  const logTail = () => (existsSync(logPath) ? readFileSync(logPath, 'utf8').slice(-2000) : '');
  const ref = spawned.pid === undefined ? undefined : processRef(spawned.pid);
  if (ref === undefined) throw new Error(`${command} did not start: ${logTail()}`);
  const exited = () => spawned.exitCode !== null || spawned.signalCode !== null;
  try {
    await waitForCriVersion(socket, exited, logTail);
  } catch (err) {
    await terminate(ref, 5_000).catch(() => undefined);
    throw err;
  }
  return { ref, logTail };
}

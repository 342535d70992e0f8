// Spawns a daemon under test in its own process group (so a Ctrl-C in the terminal reaches only
// the bench, which then removes pods through CRI before stopping the daemon by PID), output to a
// log file in its dir, and waits until it answers CRI Version. On failure it kills what it started.
import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import { processRef, terminate, type ProcessRef } from '../procs';
import { waitForCriVersion } from './ready';

const SYSTEM_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/** How to start one daemon, again and again on the same root/state/socket. */
export interface DaemonCommand {
  command: string;
  args: string[];
  socket: string;
  logPath: string;
}

export interface SpawnedDaemon {
  ref: ProcessRef;
  /** The process has exited (or was killed). */
  exited(): boolean;
  /** Resolves when it exits (Node reaps it). */
  whenExited: Promise<void>;
  logTail(): string;
}

/** Forks and execs the daemon, not waiting for it to serve; throws if it did not start at all. */
export function launchDaemon(cmd: DaemonCommand): SpawnedDaemon {
  const logFd = openSync(cmd.logPath, 'a');
  let child;
  try {
    child = spawn(cmd.command, cmd.args, {
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
  const logTail = () => (existsSync(cmd.logPath) ? readFileSync(cmd.logPath, 'utf8').slice(-2000) : '');
  const ref = spawned.pid === undefined ? undefined : processRef(spawned.pid);
  if (ref === undefined) throw new Error(`${cmd.command} did not start: ${logTail()}`);
  const exited = () => spawned.exitCode !== null || spawned.signalCode !== null;
  const whenExited = new Promise<void>((resolve) => {
    if (exited()) resolve();
    else spawned.once('exit', () => resolve());
  });
  return { ref, exited, whenExited, logTail };
}

/** launchDaemon, then wait until it answers CRI Version; kills it if it never does. */
export async function spawnDaemon(cmd: DaemonCommand): Promise<SpawnedDaemon> {
  const daemon = launchDaemon(cmd);
  try {
    await waitForCriVersion(cmd.socket, daemon.exited, daemon.logTail);
  } catch (err) {
    await terminate(daemon.ref, 5_000).catch(() => undefined);
    throw err;
  }
  return daemon;
}

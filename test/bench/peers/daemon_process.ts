// One daemon under test across restarts: the live process (its PID changes on each restart) and a
// CRI client for it (remade on each restart). restart() stops the process with a signal (SIGTERM:
// graceful, SIGKILL: a crash; containers and shims keep running either way) and starts it again
// on the same root, state and socket, timing from the exec of the new process until it serves and
// passes the caller's "everything reconnected" check.
import type { CriClient } from '../../harness/cri_client';
import { isAlive, terminate, waitGone, type ProcessRef } from '../procs';
import { msSince } from '../stats';
import { benchCriClient } from './client';
import { waitUntilServing } from './ready';
import { launchDaemon, spawnDaemon, type DaemonCommand, type SpawnedDaemon } from './spawn';

export type RestartSignal = 'SIGTERM' | 'SIGKILL';

export interface RestartTiming {
  /** From the signal until the old process was gone. */
  stopMs: number;
  /** From the exec of the new process until it served and `recovered` held. */
  serveMs: number;
  pid: number;
}

/** How long a daemon may take to exit on SIGTERM, and to serve again, before the restart fails. */
const EXIT_GRACE_MS = 30_000;
const SERVE_TIMEOUT_MS = 120_000;

export class DaemonProcess {
  private current: SpawnedDaemon | undefined;
  private client: CriClient;
  private lastPid: number;

  private constructor(
    private readonly cmd: DaemonCommand,
    first: SpawnedDaemon,
  ) {
    this.current = first;
    this.lastPid = first.ref.pid;
    this.client = benchCriClient(cmd.socket);
  }

  /** Spawns the daemon and waits until it answers Version. */
  static async start(cmd: DaemonCommand): Promise<DaemonProcess> {
    return new DaemonProcess(cmd, await spawnDaemon(cmd));
  }

  /** The daemon's PID (the last one, if a failed restart left none running). */
  get pid(): number {
    return this.lastPid;
  }

  /** The live process, or undefined after a restart that could not bring it back. */
  get ref(): ProcessRef | undefined {
    return this.current?.ref;
  }

  get cri(): CriClient {
    return this.client;
  }

  private adopt(daemon: SpawnedDaemon | undefined): void {
    this.current = daemon;
    if (daemon) this.lastPid = daemon.ref.pid;
  }

  /** Signals the process and waits until it is gone; a SIGTERM it ignores ends in SIGKILL and an error. */
  private async stopWith(signal: RestartSignal, daemon: SpawnedDaemon): Promise<number> {
    const start = process.hrtime.bigint();
    if (isAlive(daemon.ref)) process.kill(daemon.ref.pid, signal);
    // The exit event times it; polling is the bound (and covers a process that is not our child).
    const bound = signal === 'SIGTERM' ? EXIT_GRACE_MS : 10_000;
    const gone = await Promise.race([daemon.whenExited.then(() => true), waitGone(daemon.ref, bound)]);
    const ms = msSince(start);
    if (!gone) {
      await terminate(daemon.ref, 0);
      throw new Error(`pid ${daemon.ref.pid} still running ${EXIT_GRACE_MS} ms after ${signal}: ${daemon.logTail()}`);
    }
    return ms;
  }

  async restart(signal: RestartSignal, recovered: (cri: CriClient) => Promise<boolean>): Promise<RestartTiming> {
    const old = this.current;
    if (old === undefined || !isAlive(old.ref)) throw new Error(`daemon (pid ${this.lastPid}) is not running: cannot restart it`);
    this.client.close();
    this.client = benchCriClient(this.cmd.socket); // connects lazily, to whichever process serves next
    let stopMs;
    try {
      stopMs = await this.stopWith(signal, old);
    } finally {
      if (!isAlive(old.ref)) this.adopt(undefined);
    }
    const start = process.hrtime.bigint();
    const next = launchDaemon(this.cmd);
    this.adopt(next);
    try {
      await waitUntilServing(this.cmd.socket, next.exited, next.logTail, recovered, SERVE_TIMEOUT_MS);
    } catch (err) {
      // Undo the start that failed, then try one plain start so the pods can still be removed via CRI.
      await terminate(next.ref, 10_000).catch(() => undefined);
      this.adopt(undefined);
      this.adopt(await spawnDaemon(this.cmd).catch(() => undefined));
      throw err;
    }
    return { stopMs, serveMs: msSince(start), pid: next.ref.pid };
  }
}

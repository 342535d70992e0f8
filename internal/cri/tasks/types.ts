// What the CRI verbs need from tasks (a container's process run by a Runtime v2 shim). The adapter
// in service.ts implements this over internal/runtime/v2; the verbs never see ttRPC or shims.
import type { Process, Spec } from '../../oci/spec';
import type { Mount } from '../../mount/types';
import type { StdioPaths } from '../../cio/task_io';
import type { ResolvedRuntime } from '../runtime_handler';

export interface TaskExit {
  exitStatus: number;
  exitedAt: Date;
}

export interface NewTask {
  id: string;
  /** Tasks of one pod share the pod's shim. */
  sandboxId: string;
  spec: Spec;
  rootfs: Mount[];
  stdio: StdioPaths;
  runtime: ResolvedRuntime;
  /** Awaited once the shim runs, before Create (runc create); a throw fails the create. */
  beforeCreate?: () => Promise<void>;
  /** The CRI call's deadline (ms since the epoch), which shortens the wait for the Create. */
  deadlineMs?: number;
}

export interface ExecProcess {
  execId: string;
  /** The OCI process to run (args, env, cwd, user, terminal...). */
  process: Process;
  stdio: StdioPaths;
}

export interface CriTask {
  readonly id: string;
  /** The init process PID (known after create). */
  readonly pid: number;
  /** runc start; resolves to the PID. */
  start(): Promise<number>;
  /** Resolves once, when the init process has exited. */
  readonly exited: Promise<TaskExit>;
  /**
   * True when the init process's exit is already known without waiting: reconnect() found it exited
   * (while berthd was down), or its shim is gone. False for a task running when reconnected, and
   * for one this process created whose shim lives. Recovery reads it right after reconnect().
   */
  readonly exitedBeforeReconnect: boolean;
  kill(signal: number, all?: boolean): Promise<void>;
  /** Deletes the task in the shim (runc delete) and forgets it; idempotent. */
  delete(): Promise<void>;
  /** Runs an extra process in the task; resolves to its exit status. */
  exec(proc: ExecProcess, opts: TaskExecOptions): Promise<TaskExit>;
  killExec(execId: string, signal: number): Promise<void>;
  resizePty(execId: string, width: number, height: number): Promise<void>;
  closeStdin(execId: string): Promise<void>;
  update(resources: unknown): Promise<void>;
}

export interface TaskExecOptions {
  onStarted?: () => void;
  timeoutMs?: number;
  /** The caller has gone (a client cancelled or ran out of its deadline): the process is killed. */
  signal?: AbortSignal;
  /**
   * Ends only the wait for the Start (as `signal` does too), for a caller that handles its own
   * leaving once the process runs (the streaming exec): a Start cut short kills the process as
   * soon as it settles.
   */
  startSignal?: AbortSignal;
  /**
   * Called when the caller left while the Start was under way, with a promise that settles once
   * that Start settled and its process was killed. The caller keeps the process's FIFOs (paths and
   * its own ends) until then: the shim opens them in the Start, after runc started the process,
   * and a FIFO gone by then fails the Start with a process left running that no Kill can reach.
   */
  onStartAbandoned?: (settled: Promise<unknown>) => void;
  /**
   * Settles once the caller has read the process's output to its end or given up on it. Until
   * then the process stays in its shim: the shim's Delete closes the output FIFOs 2 s after it
   * is asked, cutting off what a child or a slow reader has not passed on yet (containerd too
   * deletes an exec only once its IO is drained).
   */
  outputDone?: Promise<unknown>;
}

export interface TaskService {
  create(task: NewTask): Promise<CriTask>;
  /** A live task berth knows; undefined when none. */
  get(id: string): CriTask | undefined;
  /**
   * After a restart: reconnects to the task's shim; undefined when shim or task are gone (cleaned
   * up). `spec`, the record's, makes a bundle someone removed again while its shim runs the task.
   */
  reconnect(id: string, runtime: ResolvedRuntime, spec?: Spec): Promise<CriTask | undefined>;
  /** IDs of the task bundles on disk (berth's namespace), live or not. */
  bundlesOnDisk(): string[];
  /** Cleans a task's leftovers when its shim is gone (shim `delete`), by ID. */
  cleanupDead(id: string, runtime: ResolvedRuntime): Promise<void>;
  close(): Promise<void>;
}

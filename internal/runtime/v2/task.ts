// A task (the container's init process) and its exec'd processes, as the layers above see them.
// Every call goes to the task's shim over ttRPC. If the shim dies, the shim manager cleans up and
// marks the task lost: wait() then resolves with the exit status the `delete` subcommand reported,
// and delete() only removes the bundle.
import type { DeleteResponse__Output } from '../../api/gen/containerd/task/v2/DeleteResponse';
import type { StateResponse__Output } from '../../api/gen/containerd/task/v2/StateResponse';
import type { WaitResponse__Output } from '../../api/gen/containerd/task/v2/WaitResponse';
import type { ProcessInfo__Output } from '../../api/gen/containerd/v1/types/ProcessInfo';
import type { Status__Output } from '../../api/gen/containerd/v1/types/Status';
import type { Any__Output } from '../../api/gen/google/protobuf/Any';
import type { Timestamp__Output } from '../../api/gen/google/protobuf/Timestamp';
import { failedPrecondition, isNotFound, isUnavailable, notFound, wrap } from '../../errdefs/errors';
import type { Bundle } from './bundle';
import type { ShimConnection, ShimManager } from './shim_manager';
import type { ShimLog } from './shim_log';

export interface ExitStatus {
  /** 128+signal for a signalled process, as the shim reports it. */
  exitStatus: number;
  exitedAt: Date;
  pid: number;
}

export interface ProcessStdio {
  stdin?: string;
  stdout?: string;
  stderr?: string;
  terminal?: boolean;
}

// typeurl names containerd registers for OCI spec types, carried as JSON inside the Any.
const PROCESS_SPEC_URL = 'types.containerd.io/opencontainers/runtime-spec/1/Process';
const RESOURCES_URL = 'types.containerd.io/opencontainers/runtime-spec/1/LinuxResources';

function jsonAny(typeUrl: string, value: object): Any__Output {
  return { type_url: typeUrl, value: Buffer.from(JSON.stringify(value)) };
}

function toDate(ts: Timestamp__Output | null): Date {
  if (!ts) return new Date();
  return new Date(Number(ts.seconds) * 1000 + Math.floor(ts.nanos / 1e6));
}

export function exitOf(r: { pid: number; exit_status: number; exited_at: Timestamp__Output | null }): ExitStatus {
  return { pid: r.pid, exitStatus: r.exit_status, exitedAt: toDate(r.exited_at) };
}

/** What a Task needs from the runtime that made it. */
export interface TaskHost {
  shims: ShimManager;
  /** Forget the task (it was deleted). */
  forget(task: Task): void;
}

export class Task {
  private lostExit: ExitStatus | undefined;
  private readonly lostWaiters: Array<(exit: ExitStatus) => void> = [];
  private deleted = false;

  constructor(
    private readonly host: TaskHost,
    readonly bundle: Bundle,
    private conn: ShimConnection | undefined,
    /** The init process's host PID (0 once lost and unknown). */
    public pid: number,
    private readonly shimLog: ShimLog | undefined,
    /** What the shim answered when loadTask reached it after a restart (undefined for a task created here). */
    readonly statusWhenLoaded?: Status__Output,
    /** A Wait loadTask already sent: the first wait() takes it instead of asking again. */
    private sentWait?: Promise<WaitResponse__Output>,
  ) {}

  get id(): string {
    return this.bundle.id;
  }

  get namespace(): string {
    return this.bundle.namespace;
  }

  /** The ttRPC address of the serving shim (shared by a pod's tasks). */
  get shimAddress(): string | undefined {
    return this.conn?.address;
  }

  /** True once delete() ran to the end (even if the bundle could not be removed). */
  get isDeleted(): boolean {
    return this.deleted;
  }

  /** True once the shim died and the task was cleaned up without it. */
  get lost(): boolean {
    return this.lostExit !== undefined;
  }

  /** Called by the runtime when the shim died and `delete` cleaned up after it. */
  markLost(exit: DeleteResponse__Output): ExitStatus {
    const status = exitOf(exit);
    if (status.pid === 0) status.pid = this.pid;
    this.lostExit = status;
    this.conn = undefined;
    for (const w of this.lostWaiters.splice(0)) w(status);
    return status;
  }

  private shim(): ShimConnection {
    if (this.deleted) throw failedPrecondition(`task ${this.namespace}/${this.id} was deleted`);
    if (!this.conn) throw failedPrecondition(`task ${this.namespace}/${this.id}: its shim is gone (process exited with ${this.lostExit?.exitStatus})`);
    return this.conn;
  }

  /**
   * The shim's runc needs the bundle directory for its log: one removed under a live task is made
   * again before each request. Checked in the same turn as delete() removes it and sets `deleted`,
   * so a request racing a delete never makes it again after it.
   */
  private withBundle(conn: ShimConnection): ShimConnection {
    this.host.shims.restoreBundle(this.bundle);
    return conn;
  }

  private whenLost(): Promise<ExitStatus> {
    if (this.lostExit) return Promise.resolve(this.lostExit);
    return new Promise((resolve) => this.lostWaiters.push(resolve));
  }

  /** The shim's PID and version, and the task's PID, as the shim reports them. */
  async connectInfo(): Promise<{ shimPid: number; taskPid: number; version: string }> {
    const r = await this.call('connect', (c) => c.tasks.connect({ id: this.id }));
    return { shimPid: r.shim_pid, taskPid: r.task_pid, version: r.version };
  }

  /** runc start; returns the PID. */
  async start(): Promise<number> {
    const r = await this.call('start', (c) => c.tasks.start({ id: this.id }));
    this.pid = r.pid;
    return r.pid;
  }

  /** Resolves when the init process exits (also when the shim dies: then with delete's status). */
  async wait(): Promise<ExitStatus> {
    if (this.lostExit) return this.lostExit;
    try {
      const sent = this.sentWait;
      this.sentWait = undefined;
      return exitOf({ pid: this.pid, ...(await (sent ?? this.shim().tasks.wait({ id: this.id }))) });
    } catch (err) {
      if (isUnavailable(err)) return this.whenLost();
      throw wrap(err, `wait task ${this.namespace}/${this.id}`);
    }
  }

  /** A task whose shim is gone (or going: its connection refused) answers as runc's "already finished": NotFound. */
  async kill(signal: number, opts: { all?: boolean } = {}): Promise<void> {
    try {
      await this.call('kill', (c) => c.tasks.kill({ id: this.id, signal, all: opts.all ?? false }));
    } catch (err) {
      if (this.lostExit === undefined && !isUnavailable(err)) throw err;
      throw notFound(`kill task ${this.namespace}/${this.id}: process already finished (its shim is gone)`, err);
    }
  }

  state(): Promise<StateResponse__Output> {
    return this.call('state', (c) => c.tasks.state({ id: this.id }));
  }

  async pids(): Promise<ProcessInfo__Output[]> {
    return (await this.call('pids', (c) => c.tasks.pids({ id: this.id }))).processes;
  }

  async pause(): Promise<void> {
    await this.call('pause', (c) => c.tasks.pause({ id: this.id }));
  }

  async resume(): Promise<void> {
    await this.call('resume', (c) => c.tasks.resume({ id: this.id }));
  }

  async closeIO(): Promise<void> {
    await this.call('close io', (c) => c.tasks.closeIO({ id: this.id, stdin: true }));
  }

  async resizePty(width: number, height: number): Promise<void> {
    await this.call('resize pty', (c) => c.tasks.resizePty({ id: this.id, width, height }));
  }

  /** Updates cgroup resources; `resources` is an OCI LinuxResources object. */
  async update(resources: object, annotations: Record<string, string> = {}): Promise<void> {
    await this.call('update', (c) => c.tasks.update({ id: this.id, resources: jsonAny(RESOURCES_URL, resources), annotations }));
  }

  /** Raw cgroup metrics as the shim packs them (io.containerd.cgroups.v1.Metrics or v2). */
  async stats(): Promise<Any__Output | null> {
    return (await this.call('stats', (c) => c.tasks.stats({ id: this.id }))).stats;
  }

  /** Adds a process (not yet started) described by an OCI Process spec. */
  async exec(execId: string, processSpec: object, stdio: ProcessStdio = {}): Promise<ExecProcess> {
    await this.call(`exec ${execId}`, (c) =>
      c.tasks.exec({
        id: this.id,
        exec_id: execId,
        terminal: stdio.terminal ?? false,
        stdin: stdio.stdin ?? '',
        stdout: stdio.stdout ?? '',
        stderr: stdio.stderr ?? '',
        spec: jsonAny(PROCESS_SPEC_URL, processSpec),
      }),
    );
    return new ExecProcess(this, execId);
  }

  /**
   * Deletes the stopped task in the shim, shuts the shim down if no task is left on it, and
   * removes the bundle. Returns the exit status.
   */
  async delete(): Promise<ExitStatus> {
    if (this.deleted) throw failedPrecondition(`task ${this.namespace}/${this.id} was already deleted`);
    let exit: ExitStatus | undefined;
    const conn = this.conn;
    if (conn) {
      try {
        exit = exitOf(await this.withBundle(conn).tasks.delete({ id: this.id }));
      } catch (err) {
        if (isUnavailable(err)) exit = await this.whenLost();
        // The shim no longer knows the task (deleted before, or it lost it): the bundle and the
        // shim's share of it are still ours to clean up.
        else if (!isNotFound(err)) throw wrap(err, `delete task ${this.namespace}/${this.id}`);
      }
      if (this.conn) await this.host.shims.release(conn, this.id);
    }
    exit ??= this.lostExit ?? { pid: this.pid, exitStatus: 0, exitedAt: new Date() };
    this.shimLog?.close();
    try {
      this.bundle.remove();
    } finally {
      // Forgotten even when the bundle could not be removed (a busy mount): the start-up sweep
      // removes bundles no record owns, and a retry here could not do better.
      this.deleted = true;
      this.host.forget(this);
    }
    return exit;
  }

  /** Stops forwarding the shim's log (berth is disconnecting; the task keeps running). */
  detach(): void {
    this.shimLog?.close();
  }

  /** Internal: one RPC on the shim, errors wrapped with the task's name. */
  async call<T>(what: string, fn: (conn: ShimConnection) => Promise<T>): Promise<T> {
    try {
      return await fn(this.withBundle(this.shim()));
    } catch (err) {
      throw wrap(err, `${what} task ${this.namespace}/${this.id}`);
    }
  }
}

/** A process added to a task with Exec. */
export class ExecProcess {
  public pid = 0;

  constructor(
    readonly task: Task,
    readonly execId: string,
  ) {}

  async start(): Promise<number> {
    const r = await this.task.call(`start exec ${this.execId}`, (c) => c.tasks.start({ id: this.task.id, exec_id: this.execId }));
    this.pid = r.pid;
    return r.pid;
  }

  async wait(): Promise<ExitStatus> {
    const r = await this.task.call(`wait exec ${this.execId}`, (c) => c.tasks.wait({ id: this.task.id, exec_id: this.execId }));
    return exitOf({ pid: this.pid, ...r });
  }

  async kill(signal: number): Promise<void> {
    await this.task.call(`kill exec ${this.execId}`, (c) => c.tasks.kill({ id: this.task.id, exec_id: this.execId, signal, all: false }));
  }

  state(): Promise<StateResponse__Output> {
    return this.task.call(`state exec ${this.execId}`, (c) => c.tasks.state({ id: this.task.id, exec_id: this.execId }));
  }

  async resizePty(width: number, height: number): Promise<void> {
    await this.task.call(`resize exec ${this.execId}`, (c) => c.tasks.resizePty({ id: this.task.id, exec_id: this.execId, width, height }));
  }

  async closeIO(): Promise<void> {
    await this.task.call(`close io exec ${this.execId}`, (c) => c.tasks.closeIO({ id: this.task.id, exec_id: this.execId, stdin: true }));
  }

  /** Removes the exited process from the shim; NotFound if it is already gone is not an error. */
  async delete(): Promise<ExitStatus | undefined> {
    try {
      return exitOf(await this.task.call(`delete exec ${this.execId}`, (c) => c.tasks.delete({ id: this.task.id, exec_id: this.execId })));
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }
}

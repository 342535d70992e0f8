// TaskService over Runtime v2 (internal/runtime/v2): containers' processes run by the pod's shim.
// Wait is subscribed right after Create, before Start (seed 000), so no exit is ever missed.
import { randomBytes } from 'node:crypto';
import type { Options } from '../../api/gen/containerd/runc/v1/Options';
import { BerthError, canceled, deadlineExceeded, failedPrecondition, isNotFound, kindOf, messageOf } from '../../errdefs/errors';
import { remoteMessageOf, withErrdefsClass } from '../../errdefs/grpc';
import type { Logger } from '../../log/logger';
import type { Mount } from '../../mount/types';
import type { Spec } from '../../oci/spec';
import type { ExecProcess as ShimExec, ExitStatus, Task } from '../../runtime/v2/task';
import type { RuntimeV2 } from '../../runtime/v2/runtime';
import { Bundle } from '../../runtime/v2/bundle';
import { CRI_NAMESPACE, type ResolvedRuntime } from '../runtime_handler';
import { afterMs } from '../util/after_ms';
import { unlessEnded } from '../util/call_signal';
import { DEFAULT_RUNC_ROOT, removeUnfinishedCreate } from './unfinished_create';
import type { CriTask, TaskExecOptions, ExecProcess, NewTask, TaskExit, TaskService } from './types';

const SIGKILL = 9;

function runcOptions(runtime: ResolvedRuntime): Options | undefined {
  const o = runtime.config.options;
  if (o.BinaryName === undefined && o.Root === undefined && o.SystemdCgroup === undefined) return undefined;
  return { binary_name: o.BinaryName ?? '', root: o.Root ?? '', systemd_cgroup: o.SystemdCgroup ?? false };
}

const toExit = (s: ExitStatus): TaskExit => ({ exitStatus: s.exitStatus, exitedAt: s.exitedAt });

class ShimTask implements CriTask {
  readonly exited: Promise<TaskExit>;
  private readonly execs = new Map<string, ShimExec>();
  private deleted = false;

  constructor(
    private readonly task: Task,
    private readonly onDeleted: () => void,
    private readonly log: Logger,
  ) {
    this.exited = task.wait().then(toExit);
    // Nobody may be listening yet (a task deleted before it ran): never an unhandled rejection.
    this.exited.catch((err: unknown) => log.debug('wait ended with an error', { error: messageOf(err) }));
  }

  get id(): string {
    return this.task.id;
  }

  get pid(): number {
    return this.task.pid;
  }

  start(): Promise<number> {
    return this.task.start();
  }

  get exitedBeforeReconnect(): boolean {
    // A lost task's shim died: its exit is already known (wait resolves with it).
    return this.task.lost || this.task.statusWhenLoaded === 'STOPPED';
  }

  kill(signal: number, all = false): Promise<void> {
    return this.task.kill(signal, { all });
  }

  async delete(): Promise<void> {
    if (this.deleted) return;
    try {
      await this.task.delete();
    } finally {
      // A task still running makes the shim refuse: then it stays ours to delete later.
      if (this.task.isDeleted) {
        this.deleted = true;
        this.onDeleted();
      }
    }
  }

  async exec(proc: ExecProcess, opts: TaskExecOptions): Promise<TaskExit> {
    if (this.execs.has(proc.execId)) throw failedPrecondition(`exec ${proc.execId} already exists in ${this.id}`);
    const shimExec = await this.task.exec(proc.execId, proc.process, proc.stdio);
    this.execs.set(proc.execId, shimExec);
    const what = `running ${JSON.stringify(proc.process.args ?? [])} in ${this.id}`;
    const exited = shimExec.wait();
    exited.catch(() => undefined);
    // What must end before the process is removed from the shim, besides its output: nothing, unless
    // its caller left while the Start was under way (see below).
    let removable: Promise<unknown> = Promise.resolve();
    const startEnded = opts.startSignal ?? opts.signal;
    try {
      const started = shimExec.start();
      try {
        // A Start has no deadline (task_client.ts), but its caller may leave: a `runc exec` that
        // hangs must not hold the call and the container's stop behind it forever.
        await unlessEnded(started, startEnded, `starting ${what}`);
      } catch (err) {
        // Whatever made Start fail or its caller leave, the process may run (or be about to): it is
        // killed once the Start settles (the shim handles a Kill after the Start it queues behind),
        // so it never outlives our interest in it.
        const kill = () => shimExec.kill(SIGKILL).catch(() => undefined);
        if (startEnded?.aborted === true) {
          // A caller that left waits for nothing. The kill goes now (the shim may handle it after the
          // Start) and again once the Start settled; what it started is removed once it exited.
          void kill();
          removable = started.then(() => kill().then(() => exited), kill);
          opts.onStartAbandoned?.(removable);
        } else {
          await kill(); // a failed Start has settled, so its kill is quick
          // Worded as containerd's execInternal words it, with the shim's own message (what
          // kubectl exec and a probe's event show), not the task and ttRPC method around it.
          const remote = remoteMessageOf(err);
          if (remote !== undefined) {
            throw new BerthError(kindOf(err), `failed to start exec ${JSON.stringify(proc.execId)}: ${withErrdefsClass(kindOf(err), remote)}`, { cause: err });
          }
        }
        throw err;
      }
      opts.onStarted?.();
      const { timeoutMs, signal } = opts;
      if ((timeoutMs === undefined || timeoutMs <= 0) && signal === undefined) return toExit(await exited);
      // Whichever comes first: the exit, the timeout, or the caller going away (containerd kills the
      // exec when the request's context ends, for either reason).
      let cancelTimer = () => {};
      let onAbort = () => {};
      const cutShort = new Promise<'timeout' | 'canceled'>((resolve) => {
        if (timeoutMs !== undefined && timeoutMs > 0) cancelTimer = afterMs(timeoutMs, () => resolve('timeout'));
        onAbort = () => resolve('canceled');
        if (signal?.aborted) onAbort();
        else signal?.addEventListener('abort', onAbort, { once: true });
      });
      const first = await Promise.race([exited, cutShort]);
      cancelTimer();
      signal?.removeEventListener('abort', onAbort);
      if (first !== 'timeout' && first !== 'canceled') return toExit(first);
      await shimExec.kill(SIGKILL).catch(() => undefined);
      await exited.catch(() => undefined);
      if (first === 'canceled') throw canceled(`the caller went away ${what}`);
      throw deadlineExceeded(`timeout ${timeoutMs}ms exceeded ${what}`);
    } finally {
      this.execs.delete(proc.execId);
      // Removing the process from the shim waits for its output (see TaskExecOptions.outputDone), and
      // the caller need not wait for that: it takes 1-4 ms off every exec probe.
      const remove = () => void shimExec.delete().catch((err: unknown) => this.log.debug('exec delete', { execId: proc.execId, error: messageOf(err) }));
      void removable.then(() => opts.outputDone).then(remove, remove);
    }
  }

  private execOf(execId: string): ShimExec {
    const e = this.execs.get(execId);
    if (!e) throw failedPrecondition(`exec ${execId} is not running in ${this.id}`);
    return e;
  }

  killExec(execId: string, signal: number): Promise<void> {
    return this.execOf(execId).kill(signal);
  }

  resizePty(execId: string, width: number, height: number): Promise<void> {
    return execId === '' ? this.task.resizePty(width, height) : this.execOf(execId).resizePty(width, height);
  }

  closeStdin(execId: string): Promise<void> {
    return execId === '' ? this.task.closeIO() : this.execOf(execId).closeIO();
  }

  update(resources: unknown): Promise<void> {
    return this.task.update(resources as object);
  }
}

export class ShimTaskService implements TaskService {
  private readonly tasks = new Map<string, ShimTask>();

  constructor(
    private readonly runtime: RuntimeV2,
    /** berth's state dir: bundles live under it. */
    private readonly stateDir: string,
    private readonly log: Logger,
  ) {}

  bundlesOnDisk(): string[] {
    return Bundle.list(this.stateDir)
      .filter((b) => b.namespace === CRI_NAMESPACE)
      .map((b) => b.id);
  }

  async create(t: NewTask): Promise<CriTask> {
    let task: Task;
    try {
      task = await this.runtime.createTask({
        id: t.id,
        namespace: CRI_NAMESPACE,
        spec: t.spec,
        rootfs: t.rootfs.map((m: Mount) => ({ type: m.type, source: m.source, target: m.target ?? '', options: m.options })),
        stdio: t.stdio,
        runtimeName: t.runtime.config.runtime_type,
        runcOptions: runcOptions(t.runtime),
        beforeCreate: t.beforeCreate,
        deadlineMs: t.deadlineMs,
      });
    } catch (err) {
      // The caller's deadline reaches runc create through the shim's request: cut short, runc is
      // killed after it made the container's cgroups and before it recorded the container, so the
      // create's undo (runc delete) cannot find them. containerd 1.6 leaves them too.
      this.removeUnfinished(t.id, t.spec, t.runtime);
      throw err;
    }
    return this.track(task);
  }

  get(id: string): CriTask | undefined {
    return this.tasks.get(id);
  }

  async reconnect(id: string, runtime: ResolvedRuntime, spec?: Spec): Promise<CriTask | undefined> {
    const existing = this.tasks.get(id);
    if (existing) return existing;
    try {
      const task = await this.runtime.loadTask({ namespace: CRI_NAMESPACE, id, runtimeName: runtime.config.runtime_type, spec, runcOptions: runcOptions(runtime) });
      return this.track(task);
    } catch (err) {
      if (isNotFound(err)) return undefined; // no bundle: nothing ever ran or it was deleted
      throw err;
    }
  }

  async cleanupDead(id: string, runtime: ResolvedRuntime): Promise<void> {
    const task = await this.reconnect(id, runtime);
    if (!task) return;
    const spec = this.storedSpec(id);
    await task.kill(SIGKILL, true).catch(() => undefined);
    await task.exited.catch(() => undefined);
    await task.delete();
    this.removeUnfinished(id, spec, runtime);
  }

  /** What an interrupted runc create of task `id` left (its empty cgroups, a state dir without state.json). */
  private removeUnfinished(id: string, spec: Spec | undefined, runtime: ResolvedRuntime): void {
    const removed = removeUnfinishedCreate({
      id,
      namespace: CRI_NAMESPACE,
      runcRoot: runtime.config.options.Root ?? DEFAULT_RUNC_ROOT,
      cgroupsPath: spec?.linux?.cgroupsPath ?? '',
      systemdCgroup: runtime.config.options.SystemdCgroup ?? false,
    });
    if (removed.length > 0) this.log.warn('removed what an interrupted runc create left', { taskId: id, removed });
  }

  /** The spec in a task's bundle (read before delete removes it); undefined when unreadable. */
  private storedSpec(id: string): Spec | undefined {
    try {
      return this.runtime.get(CRI_NAMESPACE, id)?.bundle.readSpec() as Spec | undefined;
    } catch {
      return undefined;
    }
  }

  close(): Promise<void> {
    return this.runtime.close();
  }

  /** A name for an exec process, unique within its task. */
  static execId(): string {
    return randomBytes(16).toString('hex');
  }

  private track(task: Task): ShimTask {
    const handle = new ShimTask(task, () => this.tasks.delete(task.id), this.log.with({ taskId: task.id }));
    this.tasks.set(task.id, handle);
    return handle;
  }
}

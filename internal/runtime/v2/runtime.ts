// RuntimeV2: the facade the CRI layer calls. createTask writes the bundle, starts (or joins) a shim
// and creates the task in it; loadTask reconnects after a restart. Every step of createTask is
// undone, last first, when a later step fails.
import { rmSync } from 'node:fs';
import { packAny, TypeNames } from '../../api/containerd';
import type { Mount } from '../../api/gen/containerd/types/Mount';
import type { DeleteResponse__Output } from '../../api/gen/containerd/task/v2/DeleteResponse';
import type { Options } from '../../api/gen/containerd/runc/v1/Options';
import { isNotFound, kindOf, messageOf, notFound, wrap } from '../../errdefs/errors';
import type { EventBus } from '../../events/bus';
import { dateToTimestamp } from '../../events/types';
import type { Logger } from '../../log/logger';
import { silentLogger } from '../../log/logger';
import { Bundle } from './bundle';
import { ShimBinaryResolver } from './resolve';
import { ShimManager, type ShimConnection } from './shim_manager';
import { ShimLog } from './shim_log';
import { exitOf, Task, type ProcessStdio, type TaskHost } from './task';
import { killWedgedShim } from './wedged_shim';
import { shimSocketAddress } from './shim_socket';
import { socketPathOf } from '../../ttrpc/client';

export const DEFAULT_RUNTIME = 'io.containerd.runc.v2';

export interface RuntimeV2Config {
  /** Bundles live under <stateDir>/io.containerd.runtime.v2.task/<namespace>/<id>. */
  stateDir: string;
  /** berth's own API socket address, given to shims as -address / GRPC_ADDRESS. */
  address: string;
  /** The events ttRPC socket (EventsServer.listen), given to shims as TTRPC_ADDRESS. */
  ttrpcAddress: string;
  /** Where lost-task exits are published (the same bus the events server feeds). */
  events: EventBus;
  logger?: Logger;
  /** Passed as -publish-binary; the runc shim of containerd ≥ 1.6 publishes over TTRPC_ADDRESS instead. */
  publishBinary?: string;
  /** Passes -debug to shims (their log then carries debug lines). */
  debug?: boolean;
  /** PATH used to find shim binaries; defaults to process.env.PATH. */
  searchPath?: string;
}

export interface CreateTaskOptions {
  id: string;
  namespace: string;
  /** The OCI runtime spec, written as config.json. Tasks whose spec carries the annotation
   * io.kubernetes.cri.sandbox-id = S share the shim of S's task. */
  spec: object;
  /** Mounts the shim stacks on <bundle>/rootfs (e.g. one overlay mount). */
  rootfs: Mount[];
  stdio?: ProcessStdio;
  /** "io.containerd.runc.v2" or an absolute path to a shim binary. */
  runtimeName?: string;
  /** containerd.runc.v1.Options: binary_name, root, systemd_cgroup, ... */
  runcOptions?: Options;
  /** Awaited once the shim runs, before its Create (e.g. for the pod network); a throw undoes the shim start. */
  beforeCreate?: () => Promise<void>;
  /** The caller's deadline (ms since the epoch), which shortens the wait for the shim's Create. */
  deadlineMs?: number;
}

export interface LoadTaskOptions {
  namespace: string;
  id: string;
  runtimeName?: string;
  /**
   * The task's spec from the caller's record: a bundle someone removed is made again from it, and
   * kept when the task's shim still runs the task or cannot be reached (then cleaned up as usual).
   */
  spec?: object;
  /** The runc options the task's shim was started with (written into a bundle made again). */
  runcOptions?: Options;
}

/** How long the undo of an unanswered Create waits for the shim's Delete (containerd's rollback has a minute for all of it). */
const UNANSWERED_UNDO_MS = 10_000;

/** The runc shim's grouping annotations, in its order: tasks with the same value share a shim. */
const GROUP_ANNOTATIONS = ['io.containerd.runc.v2.group', 'io.kubernetes.cri.sandbox-id'];

function shimGroupOf(spec: object): string | undefined {
  const annotations = (spec as { annotations?: Record<string, unknown> }).annotations ?? {};
  for (const name of GROUP_ANNOTATIONS) {
    const value = annotations[name];
    if (typeof value === 'string' && value !== '') return value;
  }
  return undefined;
}

function key(namespace: string, id: string): string {
  return `${namespace}/${id}`;
}

export class RuntimeV2 implements TaskHost {
  readonly shims: ShimManager;
  private readonly tasks = new Map<string, Task>();
  private readonly log: Logger;
  private readonly shimBinaries: ShimBinaryResolver;

  constructor(private readonly config: RuntimeV2Config) {
    this.log = config.logger ?? silentLogger;
    this.shimBinaries = new ShimBinaryResolver(config.searchPath);
    this.shims = new ShimManager(
      {
        address: config.address,
        ttrpcAddress: config.ttrpcAddress,
        publishBinary: config.publishBinary ?? '/bin/false',
        debug: config.debug ?? false,
        logger: this.log,
      },
      (bundle, exit) => this.onTaskLost(bundle, exit),
    );
  }

  get(namespace: string, id: string): Task | undefined {
    return this.tasks.get(key(namespace, id));
  }

  list(): Task[] {
    return [...this.tasks.values()];
  }

  forget(task: Task): void {
    if (this.tasks.get(key(task.namespace, task.id)) === task) this.tasks.delete(key(task.namespace, task.id));
  }

  async createTask(opts: CreateTaskOptions): Promise<Task> {
    const runtime = opts.runtimeName ?? DEFAULT_RUNTIME;
    const binary = this.shimBinaries.resolve(runtime);
    const options = opts.runcOptions ? packAny(TypeNames.RuncOptions, opts.runcOptions) : undefined;
    const undo: Array<() => Promise<void> | void> = [];
    const log = this.log.with({ namespace: opts.namespace, taskId: opts.id });
    try {
      const bundle = await Bundle.create(this.config.stateDir, opts.namespace, opts.id, opts.spec);
      bundle.setRuncOptions(opts.runcOptions);
      undo.push(() => bundle.remove());
      const group = shimGroupOf(opts.spec);
      const joined = group === undefined ? undefined : await this.shims.joinGroup(bundle, binary, group);
      // Only a bundle a shim is started in gets the `log` FIFO: the shim logs to the one in its
      // working directory, so a task that joined its group's shim has none to read. The shim opens
      // it for writing when it starts serving: we must already be reading.
      const shimLog = joined ? undefined : ShimLog.create(bundle.logPath, log);
      if (shimLog) undo.push(() => shimLog.close());
      const conn = joined ?? (await this.shims.start(bundle, binary, options));
      let unanswered = false;
      undo.push(() => this.abandon(conn, bundle, binary, unanswered));
      await opts.beforeCreate?.();
      const stdio = opts.stdio ?? {};
      const request = {
        id: opts.id,
        bundle: bundle.path,
        rootfs: opts.rootfs,
        terminal: stdio.terminal ?? false,
        stdin: stdio.stdin ?? '',
        stdout: stdio.stdout ?? '',
        stderr: stdio.stderr ?? '',
        options,
      };
      const created = await conn.tasks.create(request, opts.deadlineMs).catch((err: unknown) => {
        unanswered = kindOf(err) === 'DeadlineExceeded';
        throw err;
      });
      const task = new Task(this, bundle, conn, created.pid, shimLog);
      this.tasks.set(key(opts.namespace, opts.id), task);
      log.debug('task created', { pid: created.pid, shim: conn.address });
      return task;
    } catch (err) {
      for (const step of undo.reverse()) {
        try {
          await step();
        } catch (undoErr) {
          log.error('undo after failed task create', { error: messageOf(undoErr) });
        }
      }
      throw wrap(err, `create task ${opts.namespace}/${opts.id} (runtime ${runtime})`);
    }
  }

  /**
   * Reattaches to a task after a restart through its bundle's `address`. If its shim cannot be
   * reached, runs `delete` and returns the task already lost (wait() gives the exit status).
   */
  async loadTask(opts: LoadTaskOptions): Promise<Task> {
    const existing = this.get(opts.namespace, opts.id);
    if (existing) return existing;
    // A running shim needs no binary; only `delete`, for a shim that is gone, does.
    const binary = () => this.shimBinaries.resolve(opts.runtimeName ?? DEFAULT_RUNTIME);
    const log = this.log.with({ namespace: opts.namespace, taskId: opts.id });
    let bundle: Bundle;
    let restored = false;
    try {
      bundle = Bundle.load(this.config.stateDir, opts.namespace, opts.id);
      bundle.setRuncOptions(opts.runcOptions);
    } catch (err) {
      if (!isNotFound(err) || opts.spec === undefined) throw err;
      // Someone removed it while the task may still run: made again, its shim is reached through
      // the address the shim computes (the group's, from the spec).
      bundle = await Bundle.restore(this.config.stateDir, opts.namespace, opts.id, opts.spec, opts.runcOptions);
      restored = true;
    }
    const shimLog = restored ? undefined : ShimLog.reopen(bundle.logPath, log);
    let conn: ShimConnection | undefined;
    try {
      conn = await this.shims.reconnect(bundle, binary);
      const task = await this.loadFrom(conn, bundle, shimLog);
      if (restored) log.warn("made a task's bundle again from its record: someone removed it while the task ran", { shim: conn.address });
      return task;
    } catch (err) {
      if (restored && conn && isNotFound(err)) {
        // The shim runs but has no such task: nothing of it is left, and the bundle goes again.
        conn.members.delete(opts.id);
        if (conn.members.size === 0) await this.shims.release(conn, opts.id);
        bundle.remove();
        throw notFound(`task ${opts.namespace}/${opts.id}: its bundle was gone and its shim does not know it`, err);
      }
      log.warn('cannot reach the task shim; cleaning up with delete', { error: messageOf(err) });
      if (conn) conn.members.delete(opts.id);
      const wedged = kindOf(err) === 'DeadlineExceeded';
      const exit = await Promise.resolve()
        .then(() => this.shims.deleteWithBinary(bundle, binary()))
        .catch((e: unknown): DeleteResponse__Output => {
          log.error('shim delete failed', { error: messageOf(e) });
          return { pid: 0, exit_status: 137, exited_at: null };
        });
      // A shim that cannot be reached (its socket file removed by a /run cleaner) can serve no one
      // again either: once `delete` cleaned up without it, it is ended too, or it would run for good.
      const unreachable = conn === undefined;
      if ((wedged || unreachable) && this.killWedgedShimOf(bundle)) {
        log.warn(wedged ? 'killed the shim that did not answer' : 'killed the shim that could not be reached');
      }
      const task = new Task(this, bundle, undefined, 0, shimLog);
      task.markLost(exit);
      this.tasks.set(key(opts.namespace, opts.id), task);
      if (conn && conn.members.size === 0) await this.shims.release(conn, opts.id, { unanswered: wedged });
      return task;
    }
  }

  /**
   * The task as its reconnected shim reports it. State rather than Connect (containerd asks both):
   * it gives the PID too, and whether the task exited while nobody was connected, in one round trip
   * per task. The Wait every loaded task gets goes with it, in the same write; if State fails, so
   * does that Wait, unread.
   */
  private async loadFrom(conn: ShimConnection, bundle: Bundle, shimLog: ShimLog | undefined): Promise<Task> {
    const asked = conn.tasks.state({ id: bundle.id });
    const waiting = conn.tasks.wait({ id: bundle.id });
    waiting.catch(() => undefined);
    const state = await asked;
    const task = new Task(this, bundle, conn, state.pid, shimLog, state.status, waiting);
    this.tasks.set(key(bundle.namespace, bundle.id), task);
    return task;
  }

  /** loadTask for every bundle on disk; `runtimeOf` names each task's runtime (default runc v2). */
  async loadAll(runtimeOf: (namespace: string, id: string) => string = () => DEFAULT_RUNTIME): Promise<Task[]> {
    const loaded: Task[] = [];
    for (const { namespace, id } of Bundle.list(this.config.stateDir)) {
      try {
        loaded.push(await this.loadTask({ namespace, id, runtimeName: runtimeOf(namespace, id) }));
      } catch (err) {
        if (!isNotFound(err)) throw err;
        this.log.warn('skipping unloadable bundle', { namespace, id, error: messageOf(err) });
      }
    }
    return loaded;
  }

  /** Disconnects from every shim; shims and their containers keep running. */
  async close(): Promise<void> {
    for (const task of this.tasks.values()) task.detach();
    this.tasks.clear();
    await this.shims.closeAll();
  }

  /**
   * Undo of a failed Create: forget the task in the shim, release the shim, run `delete`. After a
   * Create that went unanswered (cut short by the caller's deadline, or the shim's own bound) the
   * shim gets UNANSWERED_UNDO_MS for the Delete, not another full wait, which made a failed
   * RunPodSandbox answer after the kubelet's own deadline: a slow shim answers it and is shut down
   * as usual; a wedged one is not asked to shut down, and, once `delete` cleaned up without it, is
   * killed if it is the shim this task started.
   */
  private async abandon(conn: ShimConnection, bundle: Bundle, binary: string, unanswered: boolean): Promise<void> {
    let wedged = false;
    await conn.tasks.delete({ id: bundle.id }, unanswered ? UNANSWERED_UNDO_MS : undefined).catch((err: unknown) => {
      wedged = kindOf(err) === 'DeadlineExceeded';
    });
    await this.shims.release(conn, bundle.id, { unanswered: wedged });
    // Belt and braces: runc delete --force and rootfs unmount, whatever state Create left.
    await this.shims.deleteWithBinary(bundle, binary).catch(() => undefined);
    if (wedged && this.killWedgedShimOf(bundle)) this.log.warn('killed the shim that did not answer', { taskId: bundle.id });
  }

  /**
   * Kills the shim daemon started for `bundle`'s task, if it runs (wedged_shim.ts), and removes its
   * socket file, where nothing listens again: killed, the shim left it under /run/containerd/s for good.
   */
  private killWedgedShimOf(bundle: Bundle): boolean {
    if (!killWedgedShim({ namespace: bundle.namespace, id: bundle.id, address: this.shims.address })) return false;
    const socket = socketPathOf(shimSocketAddress(this.shims.address, bundle.namespace, bundle.id));
    try {
      rmSync(socket, { force: true });
    } catch (err) {
      this.log.warn('cannot remove the socket of the shim killed', { socket, error: messageOf(err) });
    }
    return true;
  }

  private onTaskLost(bundle: Bundle, exit: DeleteResponse__Output): void {
    const task = this.get(bundle.namespace, bundle.id);
    const status = task ? task.markLost(exit) : exitOf(exit);
    // Report it as the shim would have: consumers see an exit either way.
    this.config.events.publish({
      kind: 'TaskExit',
      topic: '/tasks/exit',
      namespace: bundle.namespace,
      timestamp: new Date(),
      containerId: bundle.id,
      event: {
        container_id: bundle.id,
        id: bundle.id,
        pid: status.pid,
        exit_status: status.exitStatus,
        exited_at: dateToTimestamp(status.exitedAt),
      },
    });
  }
}

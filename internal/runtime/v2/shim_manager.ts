// Starts, connects to, shares, shuts down and cleans up after shims. One ttRPC connection per shim
// address: tasks of one pod (same io.kubernetes.cri.sandbox-id annotation) get the same address
// back from `start`, so they share the connection too. A connection that dies while we did not
// ask for it means the shim died: every task it served gets the `delete` subcommand (runc delete,
// rootfs unmount) and is reported lost with the exit status `delete` returns.
import { createConnection } from 'node:net';
import { rmSync } from 'node:fs';
import type { DeleteResponse__Output } from '../../api/gen/containerd/task/v2/DeleteResponse';
import type { Any__Output } from '../../api/gen/google/protobuf/Any';
import { isUnavailable, messageOf, notFound } from '../../errdefs/errors';
import type { Logger } from '../../log/logger';
import { socketPathOf, TtrpcClient } from '../../ttrpc/client';
import type { Bundle } from './bundle';
import { shimDelete, shimStart, type ShimInvocation } from './shim_process';
import { shimGroupOf, shimSocketAddress } from './shim_socket';
import { TaskClient } from './task_client';

export interface ShimManagerConfig {
  /** berth's own API address, passed as -address (decides the shim's socket path). */
  address: string;
  /** Events ttRPC socket, passed as TTRPC_ADDRESS. */
  ttrpcAddress: string;
  publishBinary: string;
  debug: boolean;
  logger: Logger;
}

/**
 * A task's shim binary, resolved when it is needed (`delete` after the shim died). Recovery gives a
 * resolver instead of a path: a PATH search per reconnected task was a tenth of restart's recovery.
 */
export type ShimBinary = () => string;

interface Member {
  bundle: Bundle;
  binary: ShimBinary;
}

/** Called after a dead shim's task was cleaned up with `delete`. */
export type LostTaskHandler = (bundle: Bundle, exit: DeleteResponse__Output) => void;

export class ShimConnection {
  readonly members = new Map<string, Member>();
  /** Set before we close or shut the shim down ourselves, so the close is not taken as a death. */
  expectedClose = false;

  constructor(
    readonly address: string,
    readonly namespace: string,
    readonly tasks: TaskClient,
  ) {}

  get closed(): boolean {
    return this.tasks.ttrpc.closed;
  }
}

const SHUTDOWN_WAIT_MS = 5_000;

/** Removes a shim socket file nobody listens on any more (the shim died before removing it). */
async function removeStaleSocket(address: string): Promise<void> {
  const path = socketPathOf(address);
  const alive = await new Promise<boolean>((resolve) => {
    const probe = createConnection({ path });
    probe.once('connect', () => {
      probe.destroy();
      resolve(true);
    });
    probe.once('error', () => resolve(false));
  });
  if (!alive) rmSync(path, { force: true });
}

function waitClosed(client: TtrpcClient, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    client.onClose(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}

export class ShimManager {
  private readonly connections = new Map<string, Promise<ShimConnection>>();
  private readonly cleanups = new Set<Promise<void>>();

  constructor(
    private readonly config: ShimManagerConfig,
    private readonly onLost: LostTaskHandler,
  ) {}

  /** berth's own API address, which every shim it starts is given (and hashes into its socket path). */
  get address(): string {
    return this.config.address;
  }

  invocation(bundle: Bundle, binary: string): ShimInvocation {
    return {
      binary,
      namespace: bundle.namespace,
      id: bundle.id,
      bundle: bundle.path,
      address: this.config.address,
      ttrpcAddress: this.config.ttrpcAddress,
      publishBinary: this.config.publishBinary,
      debug: this.config.debug,
    };
  }

  /** Runs `start` for a new task (its bundle holds the `log` FIFO the shim will write) and connects to it. */
  async start(bundle: Bundle, binary: string, options?: Any__Output): Promise<ShimConnection> {
    const address = await shimStart(this.invocation(bundle, binary), options);
    let conn: ShimConnection;
    try {
      conn = await this.connectAddress(address, bundle.namespace);
    } catch (err) {
      // The shim runs but cannot be reached: its `delete` subcommand stops it and cleans up, so
      // no shim is left serving a bundle the caller is about to remove.
      await shimDelete(this.invocation(bundle, binary)).catch(() => undefined);
      throw err;
    }
    conn.members.set(bundle.id, { bundle, binary: () => binary });
    return conn;
  }

  /**
   * Adds a new task to the live connection of its group's shim (its pod's sandbox task) without
   * running `start`, as containerd 2's ShimManager does: the group's address goes into the bundle.
   * `start` would answer the same after a Go process start-up. Undefined when there is no such
   * connection (no group task, it never started, or its shim is gone): then `start` decides.
   */
  async joinGroup(bundle: Bundle, binary: string, groupId: string): Promise<ShimConnection | undefined> {
    if (groupId === bundle.id) return undefined;
    const address = bundle.siblingAddress(groupId);
    const pending = address ? this.connections.get(address) : undefined;
    const conn = await pending?.catch(() => undefined);
    if (!conn || conn.closed || !conn.members.has(groupId)) return undefined;
    bundle.writeAddress(conn.address);
    conn.members.set(bundle.id, { bundle, binary: () => binary });
    return conn;
  }

  /**
   * Reconnects to a task's shim (restart recovery) through the `address` file in its bundle or,
   * when that file is gone or names no live socket, through the address the shim computes for
   * itself, which then goes back into the file. Without that, a shim whose task was taken for lost
   * (and deleted with the shim binary) kept running, unowned, for good: a pod's shim still held the
   * container and refused to shut down. containerd 1.6 only reads the file.
   */
  async reconnect(bundle: Bundle, binary: ShimBinary): Promise<ShimConnection> {
    const recorded = bundle.readAddress();
    let conn: ShimConnection;
    try {
      if (!recorded) throw notFound(`task ${bundle.namespace}/${bundle.id}: bundle ${bundle.path} has no shim address`);
      conn = await this.connectAddress(recorded, bundle.namespace);
    } catch (err) {
      const computed = this.computedAddress(bundle);
      if (computed === undefined || computed === recorded) throw err;
      conn = await this.connectAddress(computed, bundle.namespace).catch(() => Promise.reject(err));
      this.config.logger.warn("reconnected to a task's shim through the address it computes; its bundle's address file was missing or stale", {
        taskId: bundle.id,
        recorded: recorded ?? null,
        address: computed,
      });
      try {
        bundle.writeAddress(computed);
      } catch (writeErr) {
        // The task is reachable all the same; the next start computes the address again.
        this.config.logger.warn('cannot record the shim address in the bundle', { taskId: bundle.id, error: messageOf(writeErr) });
      }
    }
    conn.members.set(bundle.id, { bundle, binary });
    return conn;
  }

  /** The address a shim started for `bundle` listens on; undefined when its spec cannot be read. */
  private computedAddress(bundle: Bundle): string | undefined {
    let annotations: Record<string, unknown> | undefined;
    try {
      annotations = bundle.readSpec().annotations as Record<string, unknown> | undefined;
    } catch {
      return undefined;
    }
    return shimSocketAddress(this.config.address, bundle.namespace, shimGroupOf(bundle.id, annotations));
  }

  /**
   * Makes a task's bundle directory again when someone removed it (Bundle.restoreDirectory): the
   * shim's runc logs there, and its `delete` subcommand runs there. Called before each of those.
   */
  restoreBundle(bundle: Bundle): void {
    if (bundle.restoreDirectory()) {
      this.config.logger.warn("made the task's bundle directory again: someone removed it while the task ran", { namespace: bundle.namespace, taskId: bundle.id });
    }
  }

  /** The `delete` subcommand for a task whose shim is gone (or never answered). */
  async deleteWithBinary(bundle: Bundle, binary: string): Promise<DeleteResponse__Output> {
    this.restoreBundle(bundle);
    return shimDelete(this.invocation(bundle, binary));
  }

  /**
   * Drops a task from its shim; when it was the last one, asks the shim to shut down, waits for
   * it to hang up, and removes a socket it left behind. A shim that stopped answering is not asked.
   */
  async release(conn: ShimConnection, id: string, opts: { unanswered?: boolean } = {}): Promise<void> {
    conn.members.delete(id);
    if (conn.members.size > 0 || conn.closed) return;
    conn.expectedClose = true;
    this.connections.delete(conn.address);
    if (opts.unanswered) {
      // A shim that did not answer a call in its full bound would not answer Shutdown either.
      conn.tasks.ttrpc.close();
      return;
    }
    try {
      await conn.tasks.shutdown({ id, now: false });
    } catch (err) {
      // The shim exits while answering; a lost reply is the normal outcome.
      if (!isUnavailable(err)) this.config.logger.warn('shim shutdown failed', { address: conn.address, id, error: messageOf(err) });
    }
    await waitClosed(conn.tasks.ttrpc, SHUTDOWN_WAIT_MS);
    conn.tasks.ttrpc.close();
    await removeStaleSocket(conn.address);
  }

  /** Closes every connection without stopping shims (berth is going away; shims keep running). */
  async closeAll(): Promise<void> {
    const conns = await Promise.allSettled([...this.connections.values()]);
    this.connections.clear();
    for (const c of conns) {
      if (c.status !== 'fulfilled') continue;
      c.value.expectedClose = true;
      c.value.tasks.ttrpc.close();
    }
    await Promise.allSettled([...this.cleanups]);
  }

  /** Open shim connections (one per shim address, whatever the number of tasks on it). */
  get connectionCount(): number {
    return this.connections.size;
  }

  /** Resolves once every dead-shim cleanup started so far has finished. */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.cleanups]);
  }

  private connectAddress(address: string, namespace: string): Promise<ShimConnection> {
    const existing = this.connections.get(address);
    if (existing) {
      return existing.then(
        (conn) => (conn.closed ? this.freshConnection(address, namespace) : conn),
        () => this.freshConnection(address, namespace),
      );
    }
    return this.freshConnection(address, namespace);
  }

  private freshConnection(address: string, namespace: string): Promise<ShimConnection> {
    const pending = TtrpcClient.connect(address, { metadata: { 'containerd-namespace-ttrpc': namespace } }).then((client) => {
      const conn = new ShimConnection(address, namespace, new TaskClient(client));
      client.onClose((reason) => {
        if (conn.expectedClose) return;
        this.config.logger.warn('shim connection lost; cleaning up its tasks', { address, namespace, reason: reason?.message });
        const cleanup = this.cleanupDeadShim(conn).finally(() => this.cleanups.delete(cleanup));
        this.cleanups.add(cleanup);
      });
      return conn;
    });
    this.connections.set(address, pending);
    pending.catch(() => {
      if (this.connections.get(address) === pending) this.connections.delete(address);
    });
    return pending;
  }

  private async cleanupDeadShim(conn: ShimConnection): Promise<void> {
    const current = this.connections.get(conn.address);
    if (current && (await current.catch(() => undefined)) === conn) this.connections.delete(conn.address);
    const members = [...conn.members.values()];
    conn.members.clear();
    for (const { bundle, binary } of members) {
      let exit: DeleteResponse__Output;
      try {
        exit = await this.deleteWithBinary(bundle, binary());
      } catch (err) {
        this.config.logger.error('shim delete after shim death failed', { id: bundle.id, namespace: bundle.namespace, error: messageOf(err) });
        // SIGKILL's status: the process is gone as far as anyone can tell.
        exit = { pid: 0, exit_status: 137, exited_at: null };
      }
      this.onLost(bundle, exit);
    }
    await removeStaleSocket(conn.address);
  }
}

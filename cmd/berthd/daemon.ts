// berthd's wiring: config -> directories, metadata DB, CRI service, gRPC server on the unix socket.
// start() undoes its own steps in reverse when a later one fails; stop() ends the event streams,
// drains calls (with a forced shutdown after a grace period), closes the connections left and the
// database, and removes the socket. A stop before the process exits leaves to the kernel what the
// exit undoes anyway (see exitAfterStop), and drains nothing when nothing is in flight.
import * as grpc from '@grpc/grpc-js';
import { chmodSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { BerthConfig } from '../../internal/config/schema';
import { messageOf } from '../../internal/errdefs/errors';
import { silentLogger, type Logger } from '../../internal/log/logger';
import { MetadataDB } from '../../internal/metadata/db';
import { openFailure } from '../../internal/metadata/errors';
import { createGrpcServer } from '../../internal/cri/server/grpc_server';
import { berthHandlers } from '../../internal/cri/server/handlers';
import type { HandlerRegistry } from '../../internal/cri/server/registry';
import { CriService } from '../../internal/cri/server/service';
import { buildRuntimeDeps } from './runtime_deps';
import { acquireRootLock } from './root_lock';
import { announceServing } from './serving_hook';
import { recover } from '../../internal/cri/server/recover';
import { reattachContainerIO } from '../../internal/cri/server/container_start';
import { watchContainerExit } from '../../internal/cri/server/container_stop';
import { EarlyListener } from './listener';
import { claimSocketPath, removeSocketIfOurs, socketInode } from './socket';
import { metrics } from '../../internal/metrics';
import { startMetrics } from '../../internal/metrics/serve';
import { countRuntimeState } from '../../internal/cri/server/runtime_state_counts';
import { collectAfterStart } from '../../internal/cri/collect_after_start';
import { keepImageFsFigure } from '../../internal/cri/server/image_fs_info';

export interface DaemonOptions {
  logger?: Logger;
  /** Defaults to every handler berth has (internal/cri/server/handlers.ts). */
  registry?: HandlerRegistry;
  /** How long stop() lets in-flight calls finish before cutting them off. */
  shutdownGraceMs?: number;
  /**
   * The process exits right after stop() (and after a failed start()): it then leaves the shim
   * connections, log FIFOs and listeners for the kernel to close at exit (5-12 ms of stop() with
   * 20 pods, issue 16) and puts right only what outlives the process: the database's last commits
   * made durable (MetadataDB.leave) and the socket files (the root lock is an flock, which ends
   * with the process); with no client connected, the listener and the gRPC server too.
   */
  exitAfterStop?: boolean;
}

export interface Daemon {
  readonly config: BerthConfig;
  start(): Promise<void>;
  stop(): Promise<void>;
  /**
   * For a process about to exit while start() still runs (a SIGTERM during recovery, which may wait
   * on a shim for seconds): removes what start() made so far that would outlive the process (the
   * socket files) and closes the database. Everything else is left as a crash leaves
   * it, which the next start recovers from.
   */
  abandonStart(): void;
}

type Undo = () => void | Promise<void>;

/** Milliseconds from `from` to `to` (performance.now()), to 0.01 ms: a stop takes ~1-2 ms. */
const msBetween = (from: number, to = performance.now()): number => Math.round((to - from) * 100) / 100;

function shutdown(server: grpc.Server, graceMs: number, logger: Logger): Promise<void> {
  return new Promise((resolve) => {
    const force = setTimeout(() => {
      logger.warn('calls still running after the grace period; cutting them off', { graceMs });
      server.forceShutdown();
      resolve();
    }, graceMs);
    server.tryShutdown(() => {
      clearTimeout(force);
      resolve();
    });
  });
}

export function createDaemon(config: BerthConfig, opts: DaemonOptions = {}): Daemon {
  const logger = opts.logger ?? silentLogger;
  const graceMs = opts.shutdownGraceMs ?? 10_000;
  const undo: Undo[] = [];
  /** The undo steps of what outlives the process, for abandonStart(). */
  const outliving: (() => void)[] = [];
  let server: grpc.Server | undefined;
  let listening: EarlyListener | undefined;
  let db: MetadataDB | undefined;
  let inode: number | undefined;
  /** Ends the GetContainerEvents streams: a stream lasts until its client leaves, so no stop waits for it. */
  let endEventStreams: (() => void) | undefined;

  async function unwind(): Promise<void> {
    while (undo.length > 0) {
      const step = undo.pop()!;
      try {
        await step();
      } catch (err) {
        logger.error('cleanup step failed', { error: messageOf(err) });
      }
    }
  }

  async function start(): Promise<void> {
    // Start-up phases, logged with "berthd serving" (issue 16 measures exec -> serving).
    const phases: Record<string, number> = { loadedMs: Math.round(process.uptime() * 1000) };
    let phaseStart = performance.now();
    const phase = (name: string) => {
      const now = performance.now();
      phases[name] = Math.round(now - phaseStart);
      phaseStart = now;
    };
    try {
      // First: a second daemon on a live socket must leave the first one's files and DB alone.
      await claimSocketPath(config.address);
      mkdirSync(config.root, { recursive: true, mode: 0o711 });
      // The lock ends with the process: only a daemon that stops without exiting releases it.
      undo.push(acquireRootLock(config.root));
      mkdirSync(config.state, { recursive: true, mode: 0o711 });
      // Connections are accepted from here on and held until the server below exists.
      const early = await EarlyListener.listen(config.address, logger);
      listening = early;
      undo.push(() => early.close());
      chmodSync(config.address, 0o600);
      inode = socketInode(config.address);
      const removeSocket = () => removeSocketIfOurs(config.address, inode);
      undo.push(removeSocket);
      outliving.push(removeSocket);
      // Before anything reports (recovery records exits): metrics on only when an address is set.
      if (config.metrics.address !== '') {
        const served = await startMetrics(config.metrics.address);
        undo.push(() => served.stop());
        logger.info('metrics serving', { address: served.address });
      }

      db = MetadataDB.open(join(config.root, 'metadata.db'));
      const openDb = db;
      phase('dbMs');
      undo.push(() => {
        openDb.close();
        db = undefined;
      });

      const built = await buildRuntimeDeps(config, openDb, logger);
      undo.push(() => (opts.exitAfterStop ? built.removeFiles() : built.close()));
      outliving.push(() => built.removeFiles());
      const runtime = built.deps;
      phase('subsystemsMs');
      const svc = new CriService({
        config,
        logger,
        db,
        runtime,
        networkStatus: async () => runtime.cni.assertReady(),
        networkConfig: () => runtime.cni.describe(),
      });
      metrics().setStateSource(() => countRuntimeState(svc));
      endEventStreams = () => svc.rt.events.shutdown();
      // Before serving: every record reconciled with what really runs (and half-done work undone).
      await recover(svc, (service, container, task) =>
        watchContainerExit(service, container.id, task, reattachContainerIO(service, container)),
      );
      phase('recoveryMs');
      // channelz bookkeeping costs CPU on every call and connection, and nothing here reads it.
      const grpcServer = createGrpcServer(svc, opts.registry ?? berthHandlers(), {
        'grpc.enable_channelz': 0,
        ...(config.grpc.keepalive_time_ms > 0 && {
          'grpc.keepalive_time_ms': config.grpc.keepalive_time_ms,
          'grpc.keepalive_timeout_ms': config.grpc.keepalive_timeout_ms,
        }),
      });
      server = grpcServer;
      undo.push(() => {
        grpcServer.forceShutdown();
        server = undefined;
      });

      early.serve(grpcServer, grpc.ServerCredentials.createInsecure());
      phase('serverMs');
      phases.sinceExecMs = Math.round(process.uptime() * 1000);
      // CPU (user + system) since exec: steadier than the wall-clock phases on a busy node.
      const cpu = process.cpuUsage();
      phases.cpuMs = Math.round((cpu.user + cpu.system) / 1000);
      logger.info('berthd serving', { address: config.address, root: config.root, state: config.state, ...phases });
      announceServing();
      // After serving: a handler's `runc features` (when not kept from an earlier start) runs
      // beside the first calls instead of inside the first CreateContainer.
      runtime.features.prefetch(Object.values(config.cri.runtimes));
      undo.push(keepImageFsFigure(svc));
      undo.push(collectAfterStart(runtime.snapshotter, runtime.images, logger));
    } catch (err) {
      await unwind();
      // A damaged page or row found by recovery's loads names the file, as one found at open does.
      throw openFailure(err, join(config.root, 'metadata.db'));
    }
  }

  async function stop(): Promise<void> {
    // Phases, logged with "berthd stopped": calls drained, then everything else undone.
    const began = performance.now();
    // A process about to exit with nothing to drain (no client connected, as at a supervisor's
    // restart, or clients connected with no call open and nothing unsent, as a kubelet between its
    // polls) leaves without draining: the listener's and grpc-js's close, their GOAWAYs and the
    // clients' closes were ~0.8 ms with no client and ~2 ms with one (code that first runs then),
    // and the exit closes every connection anyway, as containerd's Stop does. Everything in the
    // stop is synchronous from here, so nothing is read or accepted before the exit.
    const idle = opts.exitAfterStop === true && listening !== undefined && (!listening.connected || listening.quiet);
    if (server && !idle) {
      // No new connections during the grace period; the undo step below waits for the close.
      if (listening) void listening.close();
      endEventStreams?.();
      await shutdown(server, graceMs, logger);
      // Calls drained or cut off: what is still connected is idle or was cut off.
      listening?.destroyConnections();
    }
    const drained = performance.now();
    if (opts.exitAfterStop) {
      // Calls drained; the kernel closes the rest at exit. Each remaining undo step was ~0.1-0.4 ms
      // of the stop (its code never ran in this process), ~1.3 ms in all with 20 pods.
      undo.length = 0;
      undoWhatOutlives(true);
    } else {
      // The server is already down: its own undo step (forceShutdown) is then a no-op.
      await unwind();
    }
    logger.info('berthd stopped', { address: config.address, drained: !idle, drainMs: msBetween(began, drained), undoMs: msBetween(drained) });
  }

  /**
   * Closes the database (or, for a process about to exit, makes its commits durable and leaves it:
   * MetadataDB.leave), then removes the files that would outlive the process.
   */
  function undoWhatOutlives(exiting = false): void {
    try {
      if (exiting) db?.leave();
      else db?.close();
      db = undefined;
    } catch (err) {
      logger.error(exiting ? 'making the last commits durable failed' : 'closing the database failed', { error: messageOf(err) });
    }
    for (const step of outliving.splice(0).reverse()) {
      try {
        step();
      } catch (err) {
        logger.error('cleanup step failed', { error: messageOf(err) });
      }
    }
  }

  return { config, start, stop, abandonStart: () => undoWhatOutlives() };
}

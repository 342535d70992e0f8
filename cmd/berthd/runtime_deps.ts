// Builds the subsystems the CRI verbs run on, from the config, in dependency order:
// content -> images -> snapshotter -> CNI -> stores (reloaded from the database).
// Start-up sweeps (stale ingests, extract snapshots, orphan snapshot dirs, trashes) run here, side by
// side, before serving.
import { isIPv4 } from 'node:net';
import { join } from 'node:path';
import type { BerthConfig } from '../../internal/config/schema';
import { LocalContentStore } from '../../internal/content/local';
import { ImageService } from '../../internal/images/service';
import type { Logger } from '../../internal/log/logger';
import type { MetadataDB } from '../../internal/metadata/db';
import { OverlaySnapshotter } from '../../internal/snapshots/overlay/overlay';
import { removeStaleExtracts } from '../../internal/rootfs';
import { CniManager } from '../../internal/cni/pod_network';
import { noopHooks, type Hooks } from '../../internal/nri/hooks';
import { EventBroadcaster } from '../../internal/cri/events/broadcaster';
import { SandboxStore } from '../../internal/cri/store/sandbox';
import { ContainerStore } from '../../internal/cri/store/container';
import { NameIndex } from '../../internal/cri/store/name_index';
import { KeyedMutex } from '../../internal/cri/store/keyed_mutex';
import { hostFromSystem } from '../../internal/cri/opts/host_access';
import { loadBaseRuntimeSpecs } from '../../internal/cri/runtime_handler';
import type { RuntimeDeps } from '../../internal/cri/server/service';
import { RuntimeFeatures } from '../../internal/cri/server/runtime_features';
import { FEATURES_CACHE_FILE } from '../../internal/cri/server/runtime_features_cache';
import { EventBus } from '../../internal/events/bus';
import { EventsServer } from '../../internal/events/server';
import { RuntimeV2 } from '../../internal/runtime/v2/runtime';
import { ShimTaskService } from '../../internal/cri/tasks/shim_tasks';
import { messageOf } from '../../internal/errdefs/errors';
import { Trash } from '../../internal/trash/trash';
import { StreamingServer } from '../../internal/cri/streaming';
import { CriStreamingRuntime } from '../../internal/cri/streaming_backend';
import { countedStreamingRuntime } from '../../internal/cri/streaming_metrics';

export interface RuntimeDepsOptions {
  hooks?: Hooks;
}

export interface BuiltRuntime {
  deps: RuntimeDeps;
  /** Disconnects from shims (their containers keep running) and stops the events server. */
  close(): Promise<void>;
  /**
   * For a process about to exit: removes only what would outlive it (the events socket file). The
   * kernel closes the listeners, shim connections and log FIFOs at exit, as close() would.
   */
  removeFiles(): void;
}

/** The overlay snapshotter, with the layer extractions an earlier process left half done removed. */
async function openSnapshotter(config: BerthConfig, db: MetadataDB, logger: Logger): Promise<OverlaySnapshotter> {
  const snapshotter = await OverlaySnapshotter.open({
    root: join(config.root, 'overlayfs'),
    db,
    logger: logger.with({ component: 'snapshotter' }),
  });
  const extracts = await removeStaleExtracts(snapshotter, logger);
  if (extracts.length > 0) logger.info('removed interrupted layer extractions', { keys: extracts });
  return snapshotter;
}

/**
 * A listen on `address`:`port` that cannot fail for want of the port or the address: any port, on
 * IPv4 loopback or every IPv4 address (IPv6 may be off on the host).
 */
export function canBindLater(address: string, port: string): boolean {
  if (Number(port) !== 0) return false;
  return address === '0.0.0.0' || (isIPv4(address) && address.startsWith('127.'));
}

/** Promise.all, but settled only once every promise has: the first failure is thrown after the rest ended. */
async function allEnded<T extends readonly unknown[]>(promises: { [K in keyof T]: Promise<T[K]> }): Promise<T> {
  const outcomes = await Promise.allSettled(promises);
  const failed = outcomes.find((o): o is PromiseRejectedResult => o.status === 'rejected');
  if (failed) throw failed.reason;
  return outcomes.map((o) => (o as PromiseFulfilledResult<unknown>).value) as unknown as T;
}

export async function buildRuntimeDeps(
  config: BerthConfig,
  db: MetadataDB,
  logger: Logger,
  opts: RuntimeDepsOptions = {},
): Promise<BuiltRuntime> {
  // As containerd: an unreadable base_runtime_spec stops berthd here, not at the first container.
  loadBaseRuntimeSpecs(config);
  const content = new LocalContentStore(config.root);
  const trash = {
    root: new Trash(join(config.root, 'trash'), logger.with({ component: 'trash' })),
    state: new Trash(join(config.state, 'trash'), logger.with({ component: 'trash' })),
  };
  // What a killed berthd left in the trashes is deleted in the background, serving meanwhile.
  trash.root.empty();
  trash.state.empty();
  // The start-up sweeps touch separate directories, so they wait on the disk side by side (3-10 ms
  // of a restart in a row); every one ends before a failure is reported, so none outlives the start.
  const [swept, snapshotter] = await allEnded([content.sweepIngests(), openSnapshotter(config, db, logger)] as const);
  if (swept > 0) logger.info('removed stale content ingests', { count: swept });

  const images = new ImageService({
    db,
    content,
    logger: logger.with({ component: 'images' }),
    registryConfigPath: config.registry.config_path || undefined,
  });

  const cni = new CniManager({
    confDir: config.cni.conf_dir,
    binDirs: config.cni.bin_dirs,
    cacheDir: join(config.root, 'cni'),
    maxConfNum: config.cni.max_conf_num,
    logger: logger.with({ component: 'cni' }),
  });

  const sandboxes = new SandboxStore(db);
  const containers = new ContainerStore(db);
  const sandboxNames = new NameIndex();
  const containerNames = new NameIndex();
  for (const s of sandboxes.load()) sandboxNames.reserve(s.name, s.id);
  for (const c of containers.load()) containerNames.reserve(c.name, c.id);

  // Shims publish task events to TTRPC_ADDRESS, containerd's convention: "<address>.ttrpc".
  const bus = new EventBus(logger.with({ component: 'events' }));
  const eventsServer = new EventsServer(bus, logger.with({ component: 'events' }));
  await eventsServer.listen(`${config.address}.ttrpc`);
  const runtimeV2 = new RuntimeV2({
    stateDir: config.state,
    address: config.address,
    ttrpcAddress: eventsServer.listenAddress,
    events: bus,
    logger: logger.with({ component: 'runtime-v2' }),
  });
  const tasks = new ShimTaskService(runtimeV2, config.state, logger.with({ component: 'tasks' }));

  const deps: RuntimeDeps = {
    db,
    content,
    images,
    snapshotter,
    cni,
    sandboxes,
    containers,
    sandboxNames,
    containerNames,
    locks: new KeyedMutex(),
    events: new EventBroadcaster(),
    hooks: opts.hooks ?? noopHooks,
    host: hostFromSystem(),
    tasks,
    taskEvents: bus,
    trash,
    features: new RuntimeFeatures(join(config.root, FEATURES_CACHE_FILE), logger.with({ component: 'runtime-features' })),
    streaming: undefined as unknown as StreamingServer, // set just below: the backend needs deps
  };
  const streaming = new StreamingServer({
    address: config.cri.stream_server_address,
    port: Number(config.cri.stream_server_port),
    runtime: countedStreamingRuntime(new CriStreamingRuntime(deps, logger.with({ component: 'exec' }))),
    logger: logger.with({ component: 'streaming' }),
  });
  deps.streaming = streaming;
  // Any port (0, the default: each start has another) on an address every host has is bound on the
  // first Exec, Attach or PortForward: a node nobody streams from has no listener, and a start is
  // ~2.5 ms shorter. A port or address of the operator's choosing is bound now, so a taken port or
  // an address the host lacks stops the start, as in containerd.
  if (!canBindLater(config.cri.stream_server_address, config.cri.stream_server_port)) {
    // The last step that can fail: the events socket made above goes with the start that failed.
    await streaming.start().catch(async (err: unknown) => {
      await eventsServer.close().catch((closeErr: unknown) => logger.error('closing events server', { error: messageOf(closeErr) }));
      throw err;
    }); // logs its own address
  }
  return {
    deps,
    close: async () => {
      await streaming.stop().catch((err: unknown) => logger.error('stopping streaming server', { error: messageOf(err) }));
      await tasks.close().catch((err: unknown) => logger.error('closing shim connections', { error: messageOf(err) }));
      await eventsServer.close().catch((err: unknown) => logger.error('closing events server', { error: messageOf(err) }));
    },
    removeFiles: () => eventsServer.removeSocketFile(),
  };
}

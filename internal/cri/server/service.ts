// CriService: what every CRI handler receives. It holds the daemon's dependencies in one `deps`
// object; later layers (stores, image service, snapshotter, shim manager, CNI) add their fields to
// CriDeps and the daemon wiring fills them, so handler signatures never change.
import type { BerthConfig } from '../../config/schema';
import type { Logger } from '../../log/logger';
import type { MetadataDB } from '../../metadata/db';
import type { ManagedContentStore } from '../../content/types';
import type { ImageService } from '../../images/service';
import type { Snapshotter } from '../../snapshots/types';
import type { CniManager } from '../../cni/pod_network';
import type { Hooks } from '../../nri/hooks';
import type { EventBroadcaster } from '../events/broadcaster';
import type { SandboxStore } from '../store/sandbox';
import type { ContainerStore } from '../store/container';
import type { NameIndex } from '../store/name_index';
import type { KeyedMutex } from '../store/keyed_mutex';
import type { SpecHost } from '../opts/types';
import type { TaskService } from '../tasks/types';
import type { EventBus } from '../../events/bus';
import type { StreamingServer } from '../streaming';
import type { Trash } from '../../trash/trash';
import type { RuntimeFeatures } from './runtime_features';

export interface CriDeps {
  config: BerthConfig;
  logger: Logger;
  /** The metadata database (<root>/metadata.db); absent in servers built for tests without state. */
  db?: MetadataDB;
  /**
   * Resolves when the pod network can be set up, rejects with the reason otherwise (Status's
   * NetworkReady). Until the CNI layer provides one, Status checks [cni] conf_dir for a config.
   */
  networkStatus?: () => Promise<void>;
  /** The pod network configuration in go-cni's form, for the verbose Status (`crictl info`). */
  networkConfig?: () => unknown;
  /** The subsystems below the CRI; absent only in servers built for frame tests. */
  runtime?: RuntimeDeps;
}

/** What the CRI verbs run on. Filled in by cmd/berthd/daemon.ts. */
export interface RuntimeDeps {
  db: MetadataDB;
  content: ManagedContentStore;
  images: ImageService;
  snapshotter: Snapshotter;
  cni: CniManager;
  sandboxes: SandboxStore;
  containers: ContainerStore;
  sandboxNames: NameIndex;
  containerNames: NameIndex;
  /** Serialises lifecycle operations per sandbox/container ID. */
  locks: KeyedMutex;
  events: EventBroadcaster;
  hooks: Hooks;
  host: SpecHost;
  tasks: TaskService;
  /** Task events from shims (TaskOOM, TaskExit, ...). */
  taskEvents: EventBus;
  /** Exec/attach/port-forward sessions (kubelet's streaming protocol). */
  streaming: StreamingServer;
  /** Deferred deletion of removed containers' directories, under root and under state. */
  trash: { root: Trash; state: Trash };
  /** What each runtime handler's OCI runtime supports (`runc features`). */
  features: RuntimeFeatures;
}

export class CriService {
  constructor(readonly deps: CriDeps) {}

  get config(): BerthConfig {
    return this.deps.config;
  }

  get logger(): Logger {
    return this.deps.logger;
  }

  /** The runtime subsystems; a wiring bug (not a user error) when absent. */
  get rt(): RuntimeDeps {
    if (!this.deps.runtime) throw new Error('berth: CRI service built without runtime dependencies');
    return this.deps.runtime;
  }
}

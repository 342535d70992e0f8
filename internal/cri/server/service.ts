// CriService: what every CRI handler receives. It holds the daemon's dependencies in one `deps`
// object; later layers (stores, image service, snapshotter, shim manager, CNI) add their fields to
// CriDeps and the daemon wiring fills them, so handler signatures never change.
import type { BerthConfig } from '../../config/schema';
import type { Logger } from '../../log/logger';
import type { MetadataDB } from '../../metadata/db';

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
}

export class CriService {
  constructor(readonly deps: CriDeps) {}

  get config(): BerthConfig {
    return this.deps.config;
  }

  get logger(): Logger {
    return this.deps.logger;
  }
}

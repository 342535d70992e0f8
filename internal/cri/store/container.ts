// The container store (containerd's internal/cri/store/container). The OCI spec is persisted with
// the container at create, so StartContainer (and a restarted berthd) writes the bundle from it.
import type { ContainerConfig__Output } from '../../api/gen/runtime/v1/ContainerConfig';
import type { MetadataDB } from '../../metadata/db';
import { fromJSON, toJSON } from '../../metadata/json';
import { isSet, type Nanos } from './time';
import { RecordStore, type StoredRecord } from './record_store';

export interface ContainerMetadata {
  id: string;
  name: string;
  sandboxId: string;
  config: ContainerConfig__Output;
  /** The image reference the user asked for, and what it resolved to. */
  imageRef: string;
  imageId: string;
  logPath: string;
  snapshotKey: string;
  /** Where this container's FIFOs and other volatile files live. */
  stateDir: string;
  rootDir: string;
  stopSignal: string;
  runtimeHandler: string;
  runtimeType: string;
}

export interface ContainerStatus {
  pid: number;
  createdAt: Nanos;
  startedAt: Nanos;
  finishedAt: Nanos;
  exitCode: number;
  reason: string;
  message: string;
  /** Set when the state could not be learnt (a shim lost while berth was down, say). */
  unknown: boolean;
}

export type ContainerState = 'CONTAINER_CREATED' | 'CONTAINER_RUNNING' | 'CONTAINER_EXITED' | 'CONTAINER_UNKNOWN';

/** containerd's Status.State(): derived from which timestamps are set. */
export function containerState(status: ContainerStatus): ContainerState {
  if (status.unknown) return 'CONTAINER_UNKNOWN';
  if (isSet(status.finishedAt)) return 'CONTAINER_EXITED';
  if (isSet(status.startedAt)) return 'CONTAINER_RUNNING';
  if (isSet(status.createdAt)) return 'CONTAINER_CREATED';
  return 'CONTAINER_UNKNOWN';
}

export interface Container extends StoredRecord<ContainerMetadata, ContainerStatus> {
  /** The stored OCI spec (an object; typed by internal/oci where it is used). */
  readonly spec: unknown;
  /** In memory only: StartContainer in progress / RemoveContainer in progress. */
  starting: boolean;
  removing: boolean;
}

export class ContainerStore extends RecordStore<ContainerMetadata, ContainerStatus, Container> {
  private readonly bySandbox = this.addIndex((c) => [c.metadata.sandboxId]);

  constructor(db: MetadataDB) {
    super(
      db,
      { table: 'containers', what: 'container' },
      (row, metadata, status) => ({
        id: String(row.id),
        name: String(row.name),
        metadata,
        status,
        spec: fromJSON<unknown>(String(row.spec), 'containers', String(row.id), 'spec'),
        starting: false,
        removing: false,
      }),
      (c) => c.metadata.config.labels,
    );
  }

  add(metadata: ContainerMetadata, spec: unknown, status: ContainerStatus): Container {
    const container: Container = {
      id: metadata.id,
      name: metadata.name,
      metadata,
      status,
      spec,
      starting: false,
      removing: false,
    };
    this.insert(container, {
      sandbox_id: metadata.sandboxId,
      config: toJSON(metadata.config),
      spec: toJSON(spec),
      created_at: Date.now(),
    });
    return container;
  }

  /** UpdateContainerResources keeps the stored spec current (database first, then memory). */
  updateSpec(id: string, spec: unknown): void {
    const container = this.get(id);
    this.db.tx(() => {
      this.db.prepare('UPDATE containers SET spec = ? WHERE id = ?').run(toJSON(spec), container.id);
    });
    (container as { spec: unknown }).spec = spec;
  }

  /** The containers of one pod, in the order list() gives. */
  listBySandbox(sandboxId: string): Container[] {
    return [...this.bySandbox.get(sandboxId)];
  }
}

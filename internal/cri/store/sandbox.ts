// The sandbox store (containerd's internal/cri/store/sandbox).
import type { PodSandboxConfig__Output } from '../../api/gen/runtime/v1/PodSandboxConfig';
import type { PodNetworkResult } from '../../cni/pod_network';
import type { MetadataDB } from '../../metadata/db';
import { toJSON } from '../../metadata/json';
import { RecordStore, type StoredRecord } from './record_store';
import type { Nanos } from './time';

export type SandboxState = 'ready' | 'notready' | 'unknown';

export interface SandboxMetadata {
  id: string;
  name: string;
  config: PodSandboxConfig__Output;
  /** The handler that runs the pod: the request's, or the default it named by leaving it out. */
  runtimeHandler: string;
  /** The handler as the request gave it ('' for the default), which statuses report as containerd's do; absent in pods made before. */
  requestedRuntimeHandler?: string;
  /** Runtime v2 runtime type, e.g. io.containerd.runc.v2. */
  runtimeType: string;
  /** Bind-mounted network namespace; '' for host-network pods. */
  netnsPath: string;
  ip: string;
  additionalIps: string[];
  /** The pause image as resolved at creation. */
  image: string;
  imageId: string;
  snapshotKey: string;
  /** Persistent per-sandbox dir under root; volatile one (hostname, hosts, resolv.conf, shm) under state. */
  rootDir: string;
  stateDir: string;
  cgroupParent: string;
  /** The pod network as CNI set it up (interfaces and their IPs, routes, DNS); absent for host network. */
  cniResult?: Omit<PodNetworkResult, 'networks'>;
  /** The pause container's OCI spec, once built (verbose status shows it). */
  runtimeSpec?: unknown;
}

/** The pod's runtime handler as its statuses report it. */
export const reportedRuntimeHandler = (m: SandboxMetadata): string => m.requestedRuntimeHandler ?? m.runtimeHandler;

export interface SandboxStatus {
  state: SandboxState;
  pid: number;
  createdAt: Nanos;
  exitStatus: number;
  exitedAt: Nanos;
}

export interface Sandbox extends StoredRecord<SandboxMetadata, SandboxStatus> {
  /**
   * In memory only: set once StopPodSandbox (or RemovePodSandbox) began. From then on no container
   * of the pod starts, so none can run on in a pod whose stop answered OK.
   */
  stopping: boolean;
  /**
   * In memory only: RunPodSandbox has not finished. Lookups and lists do not see the pod until then,
   * as containerd adds a sandbox to its store only once it runs: the kubelet never finds, stops or
   * removes a pod whose RunPodSandbox has not answered. A restart undoes such a pod (state unknown).
   */
  creating: boolean;
}

export class SandboxStore extends RecordStore<SandboxMetadata, SandboxStatus, Sandbox> {
  constructor(db: MetadataDB) {
    super(
      db,
      { table: 'sandboxes', what: 'sandbox' },
      (row, metadata, status) => ({ id: String(row.id), name: String(row.name), metadata, status, stopping: false, creating: false }),
      (s) => s.metadata.config.labels,
    );
  }

  /** Persists the record; with `creating`, hidden until reveal(). */
  add(metadata: SandboxMetadata, status: SandboxStatus, opts: { creating?: boolean } = {}): Sandbox {
    const sandbox: Sandbox = { id: metadata.id, name: metadata.name, metadata, status, stopping: false, creating: opts.creating ?? false };
    this.insert(sandbox, { config: toJSON(metadata.config), created_at: Date.now() });
    return sandbox;
  }

  /** Makes a pod added as `creating` visible. */
  reveal(id: string): void {
    const sandbox = this.tryGet(id);
    if (sandbox) sandbox.creating = false;
  }

  protected override isVisible(sandbox: Sandbox): boolean {
    return !sandbox.creating;
  }
}

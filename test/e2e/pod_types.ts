// The parts of core/v1 Pod the e2e writes (manifests) and reads back (the kubelet's /pods).
export interface ContainerStateTerminated {
  exitCode: number;
  reason?: string;
  signal?: number;
  startedAt?: string;
  finishedAt?: string;
}

export interface ContainerState {
  running?: { startedAt?: string };
  waiting?: { reason?: string; message?: string };
  terminated?: ContainerStateTerminated;
}

export interface ContainerStatus {
  name: string;
  ready: boolean;
  started?: boolean;
  restartCount: number;
  state: ContainerState;
  lastState: ContainerState;
  containerID?: string;
  image?: string;
}

export interface PodStatus {
  phase?: string;
  podIP?: string;
  conditions?: { type: string; status: string }[];
  containerStatuses?: ContainerStatus[];
  initContainerStatuses?: ContainerStatus[];
}

export interface Pod {
  apiVersion?: string;
  kind?: string;
  metadata: { name: string; namespace?: string; uid?: string; annotations?: Record<string, string> };
  spec: Record<string, unknown> & { containers: Record<string, unknown>[] };
  status?: PodStatus;
}

export interface PodList {
  items?: Pod[];
}

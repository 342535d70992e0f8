// What berth reports to its metrics: one method per event the daemon knows of. The recorder in use
// is the no-op one unless `[metrics] address` is set, so nothing here may cost more than a call
// when metrics are off, and this file must never import prom-client (it is loaded lazily).

/** go-grpc-prometheus's grpc_type label. */
export type RpcType = 'unary' | 'client_stream' | 'server_stream' | 'bidi_stream';

export type CniOperation = 'setup' | 'teardown';

export type StreamingKind = 'exec' | 'attach' | 'portforward';

/** The runtime's state as counted at scrape time (the CRI layer provides it: see setStateSource). */
export interface RuntimeStateCounts {
  /** By CRI state name (SANDBOX_READY, SANDBOX_NOTREADY). */
  pods: Record<string, number>;
  /** By CRI state name (CONTAINER_CREATED, CONTAINER_RUNNING, ...). */
  containers: Record<string, number>;
  shims: number;
}

export interface MetricsRecorder {
  /** An RPC began; `service` is the full name ("runtime.v1.RuntimeService"). */
  rpcStarted(service: string, method: string, type: RpcType): void;
  /** An RPC ended with this gRPC status code after `seconds`. */
  rpcHandled(service: string, method: string, type: RpcType, code: number, seconds: number): void;
  /** A pull ended; `bytes` is the image's compressed size (manifest, config, layers) when it succeeded. */
  imagePull(ok: boolean, seconds: number, bytes: number): void;
  /** An image's layers were unpacked into snapshots (a pull's unpack). */
  imageUnpack(seconds: number): void;
  /** A container's exit was recorded, with kubelet's reason (Completed, Error, OOMKilled, Unknown). */
  containerExit(reason: string): void;
  cniOperation(op: CniOperation, ok: boolean, seconds: number): void;
  /** A streaming session (exec, attach, port-forward) began; call the result when it ends. */
  streamingSession(kind: StreamingKind): () => void;
  /** Where the pod, container and shim gauges are read from when scraped. */
  setStateSource(source: () => RuntimeStateCounts): void;
}

const nothing = (): void => undefined;

/** Metrics off: every report is dropped. */
export const noopRecorder: MetricsRecorder = {
  rpcStarted: nothing,
  rpcHandled: nothing,
  imagePull: nothing,
  imageUnpack: nothing,
  containerExit: nothing,
  cniOperation: nothing,
  streamingSession: () => nothing,
  setStateSource: nothing,
};

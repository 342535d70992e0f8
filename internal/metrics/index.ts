// The daemon's metrics recorder, as a module singleton: the layers that report (gRPC frame, exit
// watchers, image pull, CNI, streaming) reach it without a new dependency threaded through every
// constructor. berthd installs the Prometheus recorder at start when `[metrics] address` is set and
// puts the no-op one back at stop; servers built in tests without it report to the no-op one.
import { noopRecorder, type MetricsRecorder } from './recorder';

export type { CniOperation, MetricsRecorder, RpcType, RuntimeStateCounts, StreamingKind } from './recorder';
export { stopwatch } from './stopwatch';

let current: MetricsRecorder = noopRecorder;

export function metrics(): MetricsRecorder {
  return current;
}

/** Makes `recorder` the one in use; the returned function restores the no-op recorder. */
export function installMetricsRecorder(recorder: MetricsRecorder): () => void {
  current = recorder;
  return () => {
    if (current === recorder) current = noopRecorder;
  };
}

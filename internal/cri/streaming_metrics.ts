// Streaming sessions for the metrics: the runtime behind the streaming server, with every exec,
// attach and port-forward connection counted while it runs (berth_streaming_sessions_*).
import { metrics, type StreamingKind } from '../metrics';
import type { AttachOptions, ExecOptions, PortForwardOptions, StreamingRuntime } from './streaming';

async function counted<T>(kind: StreamingKind, run: () => Promise<T>): Promise<T> {
  const end = metrics().streamingSession(kind);
  try {
    return await run();
  } finally {
    end();
  }
}

export function countedStreamingRuntime(inner: StreamingRuntime): StreamingRuntime {
  return {
    exec: (opts: ExecOptions) => counted('exec', () => inner.exec(opts)),
    attach: (opts: AttachOptions) => counted('attach', () => inner.attach(opts)),
    portForward: (opts: PortForwardOptions) => counted('portforward', () => inner.portForward(opts)),
  };
}

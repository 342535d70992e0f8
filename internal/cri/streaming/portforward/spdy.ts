// Port-forward over SPDY (portforward.k8s.io), as kubelet's portforward httpstream handler: for
// each forwarded connection the client opens an error and a data stream carrying the same
// `requestid` and `port`; once both are there the pair is forwarded, and a failure is written as
// text on the error stream. One SPDY session carries any number of pairs until the client leaves.
import type { Logger } from '../../../log/logger';
import { messageOf } from '../../../errdefs/errors';
import type { SpdySession } from '../spdy/session';
import type { SpdyStream } from '../spdy/stream';
import { RstStatus } from '../spdy/frames';
import type { StreamingRuntime } from '../runtime';
import { endWritable } from '../remotecommand/session';

interface StreamPair {
  requestId: string;
  data?: SpdyStream;
  error?: SpdyStream;
  timer: NodeJS.Timeout;
}

/** Validates the headers kubelet requires; returns why the stream is refused, if it is. */
function refusal(stream: SpdyStream): string | undefined {
  const port = stream.headers['port'] ?? '';
  if (port === '') return '"port" header is required';
  if (!/^\d+$/.test(port) || Number(port) < 1 || Number(port) > 65535) return `unable to parse "${port}" as a port`;
  const type = stream.headers['streamtype'] ?? '';
  if (type === '') return '"streamType" header is required';
  if (type !== 'data' && type !== 'error') return `invalid stream type "${type}"`;
  return undefined;
}

/** Old clients send no requestid: pair consecutive error/data streams by stream ID, as kubelet. */
function requestIdOf(stream: SpdyStream): string {
  const id = stream.headers['requestid'];
  if (id) return id;
  return String(stream.headers['streamtype'] === 'error' ? stream.id : stream.id - 2);
}

/** Serves port-forward pairs on `session` until it closes. */
export function servePortForwardSpdy(
  session: SpdySession,
  sandboxId: string,
  runtime: StreamingRuntime,
  streamCreationTimeoutMs: number,
  logger: Logger,
): Promise<void> {
  const controller = new AbortController();
  const pairs = new Map<string, StreamPair>();

  const forward = async (pair: StreamPair, data: SpdyStream, error: SpdyStream) => {
    const port = Number(data.headers['port']);
    // The client resetting the data stream ends the forward, as the session closing does: the pod's
    // connection is closed rather than half-closed and left to a pod that may never close it (600
    // reset pairs held 600 descriptors until the session ended, unseen by the stream limit).
    const reset = new AbortController();
    if (data.isAborted) reset.abort();
    else data.once('reset', () => reset.abort());
    try {
      await runtime.portForward({ sandboxId, port, stream: data, signal: AbortSignal.any([controller.signal, reset.signal]) });
    } catch (err) {
      const msg = `error forwarding port ${port} to pod ${sandboxId}, uid : ${messageOf(err)}`;
      logger.warn('port-forward failed', { sandboxId, port, requestId: pair.requestId, error: messageOf(err) });
      await new Promise<void>((resolve) => error.write(msg, () => resolve()));
    } finally {
      await Promise.all([endWritable(data), endWritable(error)]);
    }
  };

  session.on('stream', (stream) => {
    const why = refusal(stream);
    if (why) {
      logger.debug('port-forward stream refused', { sandboxId, reason: why });
      stream.reset(RstStatus.REFUSED_STREAM);
      return;
    }
    void stream.accept().catch(() => undefined);
    const requestId = requestIdOf(stream);
    let pair = pairs.get(requestId);
    if (!pair) {
      const created: StreamPair = {
        requestId,
        timer: setTimeout(() => {
          pairs.delete(requestId);
          created.error?.end(`(request=${requestId}) timed out waiting for streams`);
          created.data?.reset();
        }, streamCreationTimeoutMs),
      };
      pairs.set(requestId, created);
      pair = created;
    }
    const slot = stream.headers['streamtype'] === 'data' ? 'data' : 'error';
    if (pair[slot]) {
      pair.error?.write(`error processing stream for request ${requestId}: ${slot} stream already assigned`);
      stream.reset(RstStatus.PROTOCOL_ERROR);
      return;
    }
    pair[slot] = stream;
    if (slot === 'error') stream.resume(); // nothing to read there: drop what the client sends
    // The client gave up on a half-made pair: free it now rather than at its timeout.
    const unpaired = pair;
    stream.once('reset', () => {
      if (pairs.get(requestId) !== unpaired) return;
      clearTimeout(unpaired.timer);
      pairs.delete(requestId);
    });
    if (pair.data && pair.error) {
      clearTimeout(pair.timer);
      pairs.delete(requestId);
      void forward(pair, pair.data, pair.error);
    }
  });

  return new Promise((resolve) => {
    session.once('close', () => {
      controller.abort();
      for (const pair of pairs.values()) clearTimeout(pair.timer);
      pairs.clear();
      resolve();
    });
  });
}

// Exec/attach over SPDY, as kubelet's remotecommand httpstream handlers: the client opens one
// stream per `streamtype` header (error, stdin, stdout, stderr, and resize from v3 on for tty);
// we answer each and wait, bounded by the stream-creation timeout, until all expected arrived.
import { deadlineExceeded, unavailable } from '../../../errdefs/errors';
import type { SpdySession } from '../spdy/session';
import type { SpdyStream } from '../spdy/stream';
import { RstStatus } from '../spdy/frames';
import { decodeResizeEvents } from '../resize';
import { encodeStatus, type StatusEncoding } from '../status';
import { endWritable, type RemoteCommandOptions, type RemoteCommandSession } from './session';

type StreamType = 'error' | 'stdin' | 'stdout' | 'stderr' | 'resize';
const STREAM_TYPES: readonly string[] = ['error', 'stdin', 'stdout', 'stderr', 'resize'];

const supportsResize = (protocol: string) => protocol === 'v4.channel.k8s.io' || protocol === 'v3.channel.k8s.io';
const statusEncoding = (protocol: string): StatusEncoding => (protocol === 'v4.channel.k8s.io' ? 'json' : 'text');

/** The number of streams the client must open: error plus each one asked for. */
function expectedStreams(protocol: string, opts: RemoteCommandOptions): number {
  let n = 1;
  if (opts.stdin) n++;
  if (opts.stdout) n++;
  if (opts.stderr) n++;
  if (opts.tty && supportsResize(protocol)) n++;
  return n;
}

/** Waits for the client's streams on an upgraded SPDY session; rejects on timeout or hang-up. */
export function openSpdyRemoteCommand(
  session: SpdySession,
  protocol: string,
  opts: RemoteCommandOptions,
  streamCreationTimeoutMs: number,
): Promise<RemoteCommandSession> {
  const streams = new Map<StreamType, SpdyStream>();
  const expected = expectedStreams(protocol, opts);
  return new Promise((resolve, reject) => {
    let accepted = 0;
    let settled = false;
    const finish = (err?: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      session.removeListener('close', onClose);
      if (err) reject(err);
      else resolve(buildSession(session, protocol, opts, streams));
    };
    const timer = setTimeout(() => finish(deadlineExceeded(`timed out after ${streamCreationTimeoutMs}ms waiting for the client to create streams`)), streamCreationTimeoutMs);
    const onClose = () => finish(unavailable('the client closed the connection before creating its streams'));
    session.once('close', onClose);
    session.on('stream', (stream) => {
      const type = stream.headers['streamtype'] ?? '';
      // Late or duplicate streams have no one to serve them.
      if (settled || !STREAM_TYPES.includes(type) || streams.has(type as StreamType)) {
        stream.reset(RstStatus.REFUSED_STREAM);
        return;
      }
      streams.set(type as StreamType, stream);
      stream.accept().then(() => {
        if (++accepted === expected) finish();
      }, () => undefined);
    });
  });
}

function buildSession(
  session: SpdySession,
  protocol: string,
  opts: RemoteCommandOptions,
  streams: Map<StreamType, SpdyStream>,
): RemoteCommandSession {
  const controller = new AbortController();
  if (session.isClosed) controller.abort();
  session.once('close', () => controller.abort());
  const errorStream = streams.get('error');
  const resizeStream = opts.tty && supportsResize(protocol) ? streams.get('resize') : undefined;
  const stdin = opts.stdin ? streams.get('stdin') : undefined;
  // Whatever the client sends on a stream we do not read is dropped as it comes: left unread it
  // would fill the stream's buffer and stall the whole session (see SpdySession's flow control).
  for (const stream of streams.values()) if (stream !== stdin && stream !== resizeStream) stream.resume();
  return {
    protocol,
    stdin,
    stdout: opts.stdout ? streams.get('stdout') : undefined,
    stderr: opts.stderr && !opts.tty ? streams.get('stderr') : undefined,
    resize: resizeStream ? decodeResizeEvents(resizeStream) : undefined,
    signal: controller.signal,
    async writeStatus(status) {
      const bytes = encodeStatus(status, statusEncoding(protocol));
      if (!errorStream || bytes.length === 0) return;
      await new Promise<void>((resolve) => errorStream.write(bytes, () => resolve()));
    },
    async close() {
      // FIN on everything (the error stream last, so its EOF means "all output sent"), then GOAWAY.
      await Promise.all(['stdout', 'stderr', 'stdin', 'resize'].map((t) => endWritable(streams.get(t as StreamType))));
      await endWritable(errorStream);
      await session.close();
    },
    destroy: () => session.destroy(),
  };
}

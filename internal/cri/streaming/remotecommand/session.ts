// What exec and attach need from a connected client, whatever the transport (SPDY streams or
// WebSocket channels): the streams the client asked for, a way to report the outcome, a close.
import type { Readable, Writable } from 'node:stream';
import type { TerminalSize } from '../runtime';
import type { Status } from '../status';

/** Which streams the CRI request asked for; tty excludes stderr (the terminal carries it). */
export interface RemoteCommandOptions {
  stdin: boolean;
  stdout: boolean;
  stderr: boolean;
  tty: boolean;
}

export interface RemoteCommandSession {
  /** The negotiated protocol, e.g. "v4.channel.k8s.io" (for logs). */
  readonly protocol: string;
  stdin?: Readable;
  stdout?: Writable;
  stderr?: Writable;
  resize?: AsyncIterable<TerminalSize>;
  /** Aborted when the client goes away or the server stops. */
  readonly signal: AbortSignal;
  /** Reports the outcome on the error stream/channel in the negotiated encoding. */
  writeStatus(status: Status): Promise<void>;
  /** Finishes every stream we write and closes the connection. */
  close(): Promise<void>;
  /** Cuts the connection at once. */
  destroy(): void;
}

/** Ends a writable stream (if still open) and resolves once it has flushed or gone away. */
export function endWritable(stream: Writable | undefined): Promise<void> {
  if (!stream || stream.writableFinished || stream.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => resolve();
    stream.once('finish', done);
    stream.once('close', done);
    stream.once('error', done);
    if (!stream.writableEnded) stream.end();
  });
}

// The backend the streaming server drives once a client has connected: the CRI layer implements
// StreamingRuntime (exec through the shim, attach to the container's stdio, port-forward into the
// pod's netns). The protocol layer knows nothing about containers beyond the IDs it passes on.
import type { Duplex, Readable, Writable } from 'node:stream';
import { getSystemErrorMap } from 'node:util';
import { connect, type Socket } from 'node:net';
import { connectInNetns } from '../../sys/netns';
import { BerthError, causeChain, invalidArgument, kindOf, unavailable, wrap } from '../../errdefs/errors';

/** A terminal size as sent on the resize stream ({"Width":..,"Height":..} on the wire). */
export interface TerminalSize {
  width: number;
  height: number;
}

export interface ExecOptions {
  containerId: string;
  cmd: string[];
  tty: boolean;
  /** Present when the client asked for stdin; ends when the client closes it. */
  stdin?: Readable;
  /** With tty, stderr is never present: the terminal carries both. */
  stdout?: Writable;
  stderr?: Writable;
  /** Present for tty sessions whose protocol carries resizes; ends with the session. */
  resize?: AsyncIterable<TerminalSize>;
  /** Aborted when the client goes away or the server stops: kill the process then. */
  signal: AbortSignal;
}

export type AttachOptions = Omit<ExecOptions, 'cmd'>;

export interface PortForwardOptions {
  sandboxId: string;
  port: number;
  /** Bytes from the client to the port, and back. End its writable side when the port closes. */
  stream: Duplex;
  /** Aborted when the client goes away or the server stops. */
  signal: AbortSignal;
}

/**
 * What the CRI layer provides. Contract for exec/attach: resolve only after everything the process
 * wrote has been written to stdout/stderr (the caller ends those streams afterwards if the runtime
 * did not); reject for failures to run at all (reported to the client as InternalError).
 */
export interface StreamingRuntime {
  exec(opts: ExecOptions): Promise<{ exitCode: number }>;
  attach(opts: AttachOptions): Promise<void>;
  /** Resolves when both directions are done; rejects when the port cannot be reached. */
  portForward(opts: PortForwardOptions): Promise<void>;
}

/** Connects to 127.0.0.1:<port> (then [::1]) in the host namespace, for host-network pods. */
function connectHostLoopback(port: number): Promise<Socket> {
  const attempt = (host: string) =>
    new Promise<Socket>((resolve, reject) => {
      const socket = connect({ host, port });
      socket.once('connect', () => {
        socket.removeListener('error', reject);
        resolve(socket);
      });
      socket.once('error', reject);
    });
  return attempt('127.0.0.1').catch((err4: unknown) =>
    attempt('::1').catch((err6: unknown) => {
      const failed = unavailable(`connect to localhost:${port} in the host network: ${(err4 as Error).message}`, err4);
      throw Object.assign(failed, { ipv4Reason: systemReason(err4), ipv6Reason: systemReason(err6) });
    }),
  );
}

/** A socket error's system message ("connection refused"), as Go words an errno. */
function systemReason(err: unknown): string | undefined {
  const errno = (err as { errno?: unknown }).errno;
  return typeof errno === 'number' ? getSystemErrorMap().get(errno)?.[1] : undefined;
}

/** Why each loopback connect failed, where the error says (netns.c's connect, or the host's). */
function loopbackReasons(err: unknown): { v4: string; v6: string | undefined } | undefined {
  for (const e of causeChain(err)) {
    const { ipv4Reason, ipv6Reason } = e as { ipv4Reason?: unknown; ipv6Reason?: unknown };
    if (typeof ipv4Reason === 'string') return { v4: goErrnoText(ipv4Reason), v6: typeof ipv6Reason === 'string' ? goErrnoText(ipv6Reason) : undefined };
  }
  return undefined;
}

/** Go's errno strings are strerror's, lower case: "connection refused". */
const goErrnoText = (reason: string): string => reason.charAt(0).toLowerCase() + reason.slice(1);

/**
 * The port-forward the CRI layer needs: connects to localhost:<port> inside the pod's network
 * namespace (`netnsPath`, or the host's when '' for host-network pods) and pipes `stream` to it
 * both ways, half-closes included. Resolves when the connection is closed; an abort closes it.
 * A port nothing listens on fails in containerd's words (kubectl prints them).
 */
export async function portForwardInNetns(sandboxId: string, netnsPath: string, port: number, stream: Duplex, signal?: AbortSignal): Promise<void> {
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw invalidArgument(`port-forward: port ${port} is not in 1-65535`);
  }
  let socket: Socket;
  try {
    socket = netnsPath === '' ? await connectHostLoopback(port) : await connectInNetns(netnsPath, port);
  } catch (err) {
    const reasons = loopbackReasons(err);
    if (reasons === undefined) throw wrap(err, `port-forward to port ${port}`);
    const v6 = reasons.v6 === undefined ? '' : ` IPv6 dial tcp6 [::1]:${port}: connect: ${reasons.v6}`;
    throw new BerthError(
      kindOf(err),
      `failed to execute portforward in network namespace ${JSON.stringify(netnsPath === '' ? 'host' : netnsPath)}: ` +
        `failed to connect to localhost:${port} inside namespace ${JSON.stringify(sandboxId)}, IPv4: dial tcp4 127.0.0.1:${port}: connect: ${reasons.v4}${v6} `,
      { cause: err },
    );
  }
  await pipeBothWays(stream, socket, signal);
}

/** Pipes a client stream and a TCP socket into each other until the socket has closed. */
function pipeBothWays(stream: Duplex, socket: Socket, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    let failure: Error | undefined;
    const onAbort = () => socket.destroy();
    if (signal?.aborted) socket.destroy();
    signal?.addEventListener('abort', onAbort, { once: true });
    // The client stream ending half-closes the socket; the socket ending ends the client stream.
    stream.pipe(socket);
    socket.pipe(stream);
    socket.on('error', (err) => {
      failure = err;
    });
    // A client stream torn down (session gone) takes the connection with it.
    stream.on('close', () => socket.destroy());
    stream.on('error', () => socket.destroy());
    socket.once('close', () => {
      signal?.removeEventListener('abort', onAbort);
      stream.unpipe(socket);
      if (!stream.writableEnded && !stream.destroyed) stream.end();
      // A reset after data flowed is how many servers close; only a failure to talk at all matters.
      if (failure && socket.bytesRead === 0 && socket.bytesWritten === 0) reject(unavailable(`port-forward: ${failure.message}`, failure));
      else resolve();
    });
  });
}

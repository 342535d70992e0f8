// Which way an accepted connection reaches grpc-js. Only clients that send the socket path as
// :authority (Go clients of the crictl 1.26 / older kubelet generation) need the header rewrite of
// connection_bridge.ts, and the bridge costs every call of every client two more socket hops and
// a copy through JavaScript. So the first header block decides, as the rewriter itself would: a
// client whose first request carries an acceptable authority (grpc-js, newer Go clients send
// "localhost") is handed to grpc-js as the very socket it connected on, a native net.Socket with
// the bytes read so far put back (Node's HTTP/2 session reads what a socket already buffered);
// any other client goes through the bridge, as all did before.
//
// grpc-go waits for the server's connection preface (a SETTINGS frame) before its first request,
// and no server is attached while this waits for that request. So when the client's first bytes
// hold no request, this sends an empty SETTINGS frame itself (a legal server preface: the real
// server's own SETTINGS follow, and a server may send SETTINGS at any time), and the client's
// acknowledgement of it, the one frame the real server must not see, is dropped: here when it
// comes before the first request (the client is then handed over directly), else by the bridge
// whenever it comes (a client that never acknowledges is bridged, as it always was). A client that
// pings (or sends anything but SETTINGS, WINDOW_UPDATE or PRIORITY) before its first request is
// bridged at once, so the real server answers it.
import type { Socket } from 'node:net';
import { bridgeConnection } from './connection_bridge';
import { frame, PREFACE, TYPE_SETTINGS } from './authority_rewrite';
import { FirstRequestReader } from './first_request';

/** The server preface sent before the real server is attached: SETTINGS with no parameters. */
const EMPTY_SETTINGS = frame(TYPE_SETTINGS, 0, 0, Buffer.alloc(0));
/** What a client may send before its first request is decided on (a header block of 16 KiB and change). */
const MAX_UNDECIDED = 64 * 1024;
/**
 * How long a client has to send the connection preface and its first frame: grpc-go's server
 * (containerd's) gives 120 s for that handshake, then closes the connection. After it, as there, a
 * connection may stay without a request for as long as the client likes.
 */
export const HANDSHAKE_TIMEOUT_MS = 120_000;

export interface RouteOptions {
  /** Holds the connection until its way is decided (whoever stops serving closes what is left in it). */
  undecided?: Set<Socket>;
  /** HANDSHAKE_TIMEOUT_MS unless given. */
  handshakeTimeoutMs?: number;
}

/**
 * Sends `client` (accepted with allowHalfOpen: true) to `inject` once its first request shows which
 * way: itself, or the bridge's server end. A client that closes, errors, sends what is not HTTP/2
 * with prior knowledge, more than MAX_UNDECIDED bytes before deciding, or not even its preface and
 * first frame within the handshake timeout is closed here.
 */
export function routeConnection(client: Socket, inject: (socket: Socket) => void, opts: RouteOptions = {}): void {
  const { undecided } = opts;
  undecided?.add(client);
  let handshakeTimer: NodeJS.Timeout | undefined = setTimeout(() => client.destroy(), opts.handshakeTimeoutMs ?? HANDSHAKE_TIMEOUT_MS);
  handshakeTimer.unref();
  const handshakeOver = () => {
    clearTimeout(handshakeTimer);
    handshakeTimer = undefined;
  };
  const settled = () => {
    undecided?.delete(client);
    handshakeOver();
  };
  client.once('close', settled);
  const reader = new FirstRequestReader();
  const close = () => client.destroy();
  const onData = (chunk: Buffer) => {
    const reading = reader.push(chunk);
    if (handshakeTimer !== undefined && reader.handshakeDone) handshakeOver();
    if (reading.verdict === undefined && reader.size <= MAX_UNDECIDED) {
      // No request yet: the client may be waiting for a server preface.
      if (!reader.settingsSent && !reading.requestBegun && reader.size >= PREFACE.length) {
        reader.settingsSent = true;
        client.write(EMPTY_SETTINGS);
      }
      return;
    }
    client.off('data', onData);
    client.off('error', close);
    client.off('end', close);
    client.off('close', settled);
    settled();
    client.pause();
    if (reading.verdict === 'direct') {
      // A plain accepted socket from here on, as grpc-js's own listener would have given it.
      client.allowHalfOpen = false;
      client.unshift(reading.forward);
      inject(client);
    } else if (reading.verdict === 'bridge') {
      const server = bridgeConnection(client, reading.forward, reading.ackToCome);
      if (server) inject(server);
    } else {
      close();
    }
  };
  client.on('data', onData);
  client.on('error', close);
  client.on('end', close);
}

// Hands an accepted connection to grpc-js through a socketpair, rewriting the client's header
// blocks on the way (authority_rewrite.ts). grpc-js gets the pair's far end: a real net.Socket on a
// kernel fd, which Node's HTTP/2 core drives natively. Wrapping the client socket in a JS Duplex
// instead made Node put a JSStreamSocket under the HTTP/2 session, and a client dropping its
// connection while that session was shutting down tripped an internal assertion that killed the
// process (ERR_INTERNAL_ASSERTION in JSStreamSocket.doWrite). Here every error of the client
// socket stays in this file: it ends both sockets, and the session only ever sees its own socket
// close, the way it sees any dropped connection.
import type { Socket } from 'node:net';
import { socketPair } from '../sys/sock';
import { ClientStreamRewriter } from './authority_rewrite';

/**
 * Connects `client` (accepted with allowHalfOpen: true) to a new socket for the server. Client-to-server bytes go through the
 * authority rewrite; server-to-client bytes are copied as they are. Back-pressure holds in both
 * directions (a side that stops reading stops the other's reads), half-closes are passed on, and
 * an error or close of either side destroys both. `initial`: what was already read from `client`
 * (connection_route.ts), passed on first; `dropSettingsAck`: see ClientStreamRewriter. Undefined
 * (and `client` closed) when no socketpair can be made.
 */
export function bridgeConnection(client: Socket, initial?: Buffer, dropSettingsAck = false): Socket | undefined {
  // Our end passes half-closes on itself (below), as `client` must (accepted with allowHalfOpen);
  // the server's end behaves as a plain accepted socket.
  let ours: Socket;
  let server: Socket;
  try {
    [ours, server] = socketPair([true, false]);
  } catch {
    // Out of fds (EMFILE/ENFILE): refuse this client rather than leave it open with nobody reading.
    client.destroy();
    return undefined;
  }
  const rewriter = new ClientStreamRewriter(dropSettingsAck);
  let closed = false;
  const closeBoth = () => {
    if (closed) return;
    closed = true;
    client.destroy();
    ours.destroy();
  };

  let backPressured = false;
  const onClientData = (chunk: Buffer) => {
    let parts: Buffer[];
    try {
      parts = rewriter.push(chunk);
    } catch {
      // Not HTTP/2 we can follow (bad HPACK, an oversized header block): drop the connection.
      closeBoth();
      return;
    }
    let flowing = true;
    for (const part of parts) flowing = ours.write(part) && flowing;
    backPressured = !flowing;
    if (!flowing) client.pause();
  };
  client.on('data', onClientData);
  ours.on('drain', () => client.resume());
  ours.on('data', (chunk: Buffer) => {
    if (!client.write(chunk)) ours.pause();
  });
  client.on('drain', () => ours.resume());

  client.on('end', () => ours.end());
  ours.on('end', () => client.end());
  for (const socket of [client, ours]) {
    socket.on('error', closeBoth);
    socket.on('close', closeBoth);
  }
  if (initial !== undefined && initial.length > 0) onClientData(initial);
  if (!backPressured && !closed) client.resume(); // paused by whoever read `initial`
  return server;
}

// How many HTTP/2 streams are open on the connections grpc-js serves, for a stop to tell "nothing in
// flight and nothing unsent" from calls it must drain (listener.ts `quiet`). A stream closes only
// once its END_STREAM frame went out, so an answer that the client's flow-control window still holds
// back keeps its stream open. grpc-js keeps its HTTP/2 server private (`http2Servers` in its
// server.ts, the one server a connection injector makes): where that is not found, the count is
// unknown and every stop drains, as before.
import type * as grpc from '@grpc/grpc-js';
import { EventEmitter } from 'node:events';
import type { ServerHttp2Session, ServerHttp2Stream } from 'node:http2';

export class OpenStreams {
  private open = 0;
  private counting = false;

  /** Counts from now on the streams of `server`'s connection injector (made just before). */
  track(server: grpc.Server): void {
    const servers = (server as unknown as { http2Servers?: unknown }).http2Servers;
    if (!(servers instanceof Map) || servers.size !== 1) return;
    const http2Server: unknown = servers.keys().next().value;
    if (!(http2Server instanceof EventEmitter)) return;
    http2Server.on('session', (session: ServerHttp2Session) =>
      session.on('stream', (stream: ServerHttp2Stream) => {
        this.open++;
        stream.once('close', () => this.open--);
      }),
    );
    this.counting = true;
  }

  /** Counted, and no stream open. */
  get none(): boolean {
    return this.counting && this.open === 0;
  }
}

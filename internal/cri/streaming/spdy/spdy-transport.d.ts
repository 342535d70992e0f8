// Types for the parts of spdy-transport (3.0.0, untyped) that berth uses: the SPDY/3 header
// dictionary on the server side, and the client connection in the test harness.
declare module 'spdy-transport/lib/spdy-transport/protocol/spdy/dictionary' {
  const dictionary: Record<2 | 3, Buffer>;
  export = dictionary;
}

declare module 'spdy-transport' {
  import type { Duplex } from 'node:stream';
  import type { EventEmitter } from 'node:events';

  export interface SpdyStream extends Duplex {
    readonly id: number;
    readonly headers: Record<string, string>;
    on(event: 'response', listener: (status: number, headers: Record<string, string>) => void): this;
    on(event: 'data', listener: (chunk: Buffer) => void): this;
    on(event: 'end' | 'close' | 'finish', listener: () => void): this;
    on(event: 'error', listener: (err: Error) => void): this;
    abort(callback?: () => void): void;
  }

  export interface RequestOptions {
    method: string;
    path: string;
    headers?: Record<string, string>;
  }

  export interface SpdyConnection extends EventEmitter {
    start(version: number): void;
    request(opts: RequestOptions, callback?: (err: Error | null, stream: SpdyStream) => void): SpdyStream;
    end(callback?: () => void): void;
  }

  export const connection: {
    create(socket: Duplex, options: { protocol: 'spdy' | 'http2'; isServer: boolean; windowSize?: number }): SpdyConnection;
  };
}

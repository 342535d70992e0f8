// The handler registry: service method name -> handler. Handler types come from the generated
// service interfaces, so registering `Version` with the wrong request/response shape (or a unary
// handler for a streaming method) does not compile. Methods nobody registers answer UNIMPLEMENTED.
import type * as grpc from '@grpc/grpc-js';
import type { AdminHandlers } from '../../api/gen/berth/admin/v1/Admin';
import type { ImageServiceHandlers } from '../../api/gen/runtime/v1/ImageService';
import type { RuntimeServiceHandlers } from '../../api/gen/runtime/v1/RuntimeService';
import type { CriService } from './service';

/** A unary RPC: resolve with the response, or throw a BerthError (mapped to its gRPC code). */
export type UnaryHandler<Req, Res> = (svc: CriService, req: Req, call: grpc.ServerUnaryCall<Req, Res>) => Promise<Res>;

/** A server-streaming RPC: write responses to `stream`; the stream ends when the promise settles. */
export type ServerStreamHandler<Req, Res> = (
  svc: CriService,
  req: Req,
  stream: grpc.ServerWritableStream<Req, Res>,
) => Promise<void>;

interface ServiceHandlerTypes {
  RuntimeService: RuntimeServiceHandlers;
  ImageService: ImageServiceHandlers;
  Admin: AdminHandlers;
}

export type ServiceName = keyof ServiceHandlerTypes;

// The generated interfaces extend grpc's index-signature type; keep only the named methods.
type NamedKeys<T> = keyof { [K in keyof T as string extends K ? never : number extends K ? never : K]: T[K] };

export type MethodName<S extends ServiceName> = NamedKeys<ServiceHandlerTypes[S]> & string;

type HandlerFor<G> =
  G extends grpc.handleServerStreamingCall<infer Req, infer Res>
    ? ServerStreamHandler<Req, Res>
    : G extends grpc.handleUnaryCall<infer Req, infer Res>
      ? UnaryHandler<Req, Res>
      : never;

export type HandlerOf<S extends ServiceName, M extends MethodName<S>> = HandlerFor<ServiceHandlerTypes[S][M]>;

/** Some of a service's handlers, by method name. */
export type ServiceHandlerMap<S extends ServiceName> = { [M in MethodName<S>]?: HandlerOf<S, M> };

/** How the gRPC layer calls any handler; the typed signature is enforced at registration. */
export type RegisteredHandler = (svc: CriService, req: unknown, call: unknown) => Promise<unknown>;

export class HandlerRegistry {
  private readonly tables = new Map<ServiceName, Map<string, RegisteredHandler>>();

  /** Adds handlers for one service; registering a method twice is a wiring bug and throws. */
  register<S extends ServiceName>(service: S, handlers: ServiceHandlerMap<S>): this {
    let table = this.tables.get(service);
    if (table === undefined) {
      table = new Map();
      this.tables.set(service, table);
    }
    for (const [method, handler] of Object.entries(handlers)) {
      if (handler === undefined) continue;
      if (table.has(method)) throw new Error(`berth: ${service}/${method} registered twice`);
      table.set(method, handler as RegisteredHandler);
    }
    return this;
  }

  lookup(service: ServiceName, method: string): RegisteredHandler | undefined {
    return this.tables.get(service)?.get(method);
  }

  /** Registered method names of a service, sorted (for logs and the README's status list). */
  methods(service: ServiceName): string[] {
    return [...(this.tables.get(service)?.keys() ?? [])].sort();
  }
}

// The gRPC services berthd serves, built at run time from our own .proto files in api/ (the
// generated types in gen/ describe them): CRI runtime.v1 RuntimeService and ImageService, and
// berth.admin.v1.Admin. Messages convert as `make gen` describes them (and as proto-loader would):
// field names as in the .proto, 64-bit integers as decimal strings, enums as their names, defaults
// filled in. We build the grpc-js definitions from protobufjs ourselves instead of through
// proto-loader: it serialises a descriptor for every message type (and brings a second protobufjs),
// which cost berthd about 20 MiB of resident memory for nothing grpc-js uses.
import * as grpc from '@grpc/grpc-js';
import * as protobuf from 'protobufjs';
import type { AdminClient, AdminDefinition } from './gen/berth/admin/v1/Admin';
import { loadProtoRoot } from './proto_root';
import type { ImageServiceClient, ImageServiceDefinition } from './gen/runtime/v1/ImageService';
import type { RuntimeServiceClient, RuntimeServiceDefinition } from './gen/runtime/v1/RuntimeService';

export type { AdminClient, AdminDefinition, ImageServiceClient, ImageServiceDefinition, RuntimeServiceClient, RuntimeServiceDefinition };

/** How decoded messages are shaped (the options `make gen` gives proto-loader-gen-types). */
export const CONVERSION_OPTIONS: protobuf.IConversionOptions = {
  longs: String,
  enums: String,
  defaults: true,
  oneofs: true,
};

export { repoRoot } from '../repo_root';

/** A service constructor as grpc-js makes it, with its definition at `.service`. */
type ServiceConstructor<Client, Definition> = (new (address: string, credentials: grpc.ChannelCredentials, options?: grpc.ClientOptions) => Client) & {
  service: Definition;
};

export interface BerthServices {
  runtime: ServiceConstructor<RuntimeServiceClient, RuntimeServiceDefinition>;
  image: ServiceConstructor<ImageServiceClient, ImageServiceDefinition>;
  admin: ServiceConstructor<AdminClient, AdminDefinition>;
}

/** lodash-style camelCase of a method name ("ImageFSInfo" -> "imageFsInfo"), as proto-loader names the alias. */
function camelCase(name: string): string {
  const words = name.match(/[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+/g) ?? [name];
  return words.map((w, i) => (i === 0 ? w.toLowerCase() : w[0]!.toUpperCase() + w.slice(1).toLowerCase())).join('');
}

function serializer(type: protobuf.Type): grpc.serialize<unknown> {
  return (value) => {
    if (Array.isArray(value)) throw new Error(`cannot serialize an array as ${type.fullName.slice(1)}`);
    return Buffer.from(type.encode(type.fromObject(value as Record<string, unknown>)).finish());
  };
}

function deserializer(type: protobuf.Type): grpc.deserialize<unknown> {
  return (bytes) => type.toObject(type.decode(bytes), CONVERSION_OPTIONS);
}

function serviceDefinition(service: protobuf.Service): grpc.ServiceDefinition {
  const name = service.fullName.slice(1); // protobufjs full names start with "."
  const definition: Record<string, grpc.MethodDefinition<unknown, unknown>> = {};
  for (const method of service.methodsArray) {
    const request = method.resolvedRequestType as protobuf.Type;
    const response = method.resolvedResponseType as protobuf.Type;
    definition[method.name] = {
      path: `/${name}/${method.name}`,
      requestStream: method.requestStream === true,
      responseStream: method.responseStream === true,
      requestSerialize: serializer(request),
      requestDeserialize: deserializer(request),
      responseSerialize: serializer(response),
      responseDeserialize: deserializer(response),
      originalName: camelCase(method.name),
    };
  }
  return definition;
}

function serviceConstructor<Client, Definition>(root: protobuf.Root, fullName: string): ServiceConstructor<Client, Definition> {
  const service = root.lookupService(fullName);
  const definition = serviceDefinition(service);
  const ctor = grpc.makeGenericClientConstructor(definition, fullName);
  return ctor as unknown as ServiceConstructor<Client, Definition>;
}

/** The services berthd serves; `make build` turns these into a JSON descriptor (proto_root.ts). */
export const CRI_PROTO_FILES = ['runtime/v1/api.proto', 'berth/admin/v1/admin.proto'];

let cached: BerthServices | undefined;

/** Service constructors (clients) and their definitions (`.service`, for servers); loaded once. */
export function berthServices(): BerthServices {
  if (cached === undefined) {
    const root = loadProtoRoot('cri', CRI_PROTO_FILES);
    cached = {
      runtime: serviceConstructor(root, 'runtime.v1.RuntimeService'),
      image: serviceConstructor(root, 'runtime.v1.ImageService'),
      admin: serviceConstructor(root, 'berth.admin.v1.Admin'),
    };
  }
  return cached;
}

export const runtimeServiceDefinition = (): RuntimeServiceDefinition => berthServices().runtime.service;
export const imageServiceDefinition = (): ImageServiceDefinition => berthServices().image.service;
export const adminServiceDefinition = (): AdminDefinition => berthServices().admin.service;

/** gRPC target for a unix socket path. */
export function unixTarget(socketPath: string): string {
  return `unix://${socketPath}`;
}

// ---- Promise clients (berthctl, tests): unary methods resolve with the response; server-streaming
// methods resolve with every message once the stream ends. Long-lived streams (GetContainerEvents)
// use the raw client instead.

type NamedKeys<T> = keyof { [K in keyof T as string extends K ? never : number extends K ? never : K]: T[K] };

export type PromiseClient<Client, Definition> = {
  [M in NamedKeys<Definition> & keyof Client]: Client[M] extends {
    (argument: infer Req, callback: grpc.requestCallback<infer Res>): grpc.ClientUnaryCall;
  }
    ? (req: Req, options?: grpc.CallOptions) => Promise<Res>
    : Client[M] extends { (argument: infer Req, options?: grpc.CallOptions): grpc.ClientReadableStream<infer Res> }
      ? (req: Req, options?: grpc.CallOptions) => Promise<Res[]>
      : never;
};

type UntypedUnary = (req: unknown, options: grpc.CallOptions, cb: (err: grpc.ServiceError | null, res?: unknown) => void) => void;
type UntypedStream = (req: unknown, options: grpc.CallOptions) => grpc.ClientReadableStream<unknown>;

/** Wraps a generated client so each method of `definition` returns a promise. */
export function promiseClient<Client extends grpc.Client, Definition extends grpc.ServiceDefinition>(
  client: Client,
  definition: Definition,
): PromiseClient<Client, Definition> {
  const out: Record<string, (req: unknown, options?: grpc.CallOptions) => Promise<unknown>> = {};
  const methods = client as unknown as Record<string, UntypedUnary | UntypedStream>;
  for (const [name, def] of Object.entries(definition)) {
    const method = methods[name]!.bind(client);
    out[name] = def.responseStream
      ? (req, options = {}) =>
          new Promise((resolve, reject) => {
            const items: unknown[] = [];
            const stream = (method as UntypedStream)(req, options);
            stream.on('data', (item: unknown) => items.push(item));
            stream.on('error', reject);
            stream.on('end', () => resolve(items));
          })
      : (req, options = {}) =>
          new Promise((resolve, reject) => {
            (method as UntypedUnary)(req, options, (err, res) => (err ? reject(err) : resolve(res)));
          });
  }
  return out as unknown as PromiseClient<Client, Definition>;
}

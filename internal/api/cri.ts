// The gRPC services berthd serves, loaded at run time from our own .proto files in api/ (the
// generated types in gen/ describe them): CRI runtime.v1 RuntimeService and ImageService, and
// berth.admin.v1.Admin. Options match `make gen`, so values have the generated shapes: field names
// as in the .proto, 64-bit integers as decimal strings, enums as their names, defaults filled in.
import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { ProtoGrpcType as AdminProto } from './gen/admin';
import type { ProtoGrpcType as CriProto } from './gen/api';
import type { AdminClient, AdminDefinition } from './gen/berth/admin/v1/Admin';
import type { ImageServiceClient, ImageServiceDefinition } from './gen/runtime/v1/ImageService';
import type { RuntimeServiceClient, RuntimeServiceDefinition } from './gen/runtime/v1/RuntimeService';

export type { AdminClient, AdminDefinition, ImageServiceClient, ImageServiceDefinition, RuntimeServiceClient, RuntimeServiceDefinition };

export const LOADER_OPTIONS: protoLoader.Options = {
  keepCase: true,
  longs: String,
  enums: String,
  defaults: true,
  oneofs: true,
};

/** The repository root: the first directory above this file with a package.json (works from dist/ and from sources). */
export function repoRoot(): string {
  let dir = __dirname;
  while (!existsSync(join(dir, 'package.json'))) {
    const up = dirname(dir);
    if (up === dir) throw new Error(`berth: cannot find package.json above ${__dirname}`);
    dir = up;
  }
  return dir;
}

/** Directory of berth's .proto files. */
export function protoDir(): string {
  return join(repoRoot(), 'api');
}

function load<T>(file: string): T {
  const definition = protoLoader.loadSync(join(protoDir(), file), { ...LOADER_OPTIONS, includeDirs: [protoDir()] });
  return grpc.loadPackageDefinition(definition) as unknown as T;
}

export interface BerthServices {
  runtime: CriProto['runtime']['v1']['RuntimeService'];
  image: CriProto['runtime']['v1']['ImageService'];
  admin: AdminProto['berth']['admin']['v1']['Admin'];
}

let cached: BerthServices | undefined;

/** Service constructors (clients) and their definitions (`.service`, for servers); loaded once. */
export function berthServices(): BerthServices {
  if (cached === undefined) {
    const cri = load<CriProto>('runtime/v1/api.proto');
    const admin = load<AdminProto>('berth/admin/v1/admin.proto');
    cached = {
      runtime: cri.runtime.v1.RuntimeService,
      image: cri.runtime.v1.ImageService,
      admin: admin.berth.admin.v1.Admin,
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

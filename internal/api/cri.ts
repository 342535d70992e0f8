// The gRPC services berthd serves, built at run time from our own .proto files in api/ (the
// generated types in gen/ describe them): CRI runtime.v1 RuntimeService and ImageService, the same two
// in runtime.v1alpha2 (kubelets up to 1.25), and berth.admin.v1.Admin. grpc_definition.ts says how
// messages convert.
import * as grpc from '@grpc/grpc-js';
import type * as protobuf from 'protobufjs';
import type { AdminClient, AdminDefinition } from './gen/berth/admin/v1/Admin';
import type { ImageServiceClient, ImageServiceDefinition } from './gen/runtime/v1/ImageService';
import type { RuntimeServiceClient, RuntimeServiceDefinition } from './gen/runtime/v1/RuntimeService';
import type {
  ImageServiceClient as ImageServiceV1alpha2Client,
  ImageServiceDefinition as ImageServiceV1alpha2Definition,
} from './gen/runtime/v1alpha2/ImageService';
import type {
  RuntimeServiceClient as RuntimeServiceV1alpha2Client,
  RuntimeServiceDefinition as RuntimeServiceV1alpha2Definition,
} from './gen/runtime/v1alpha2/RuntimeService';
import { lazyServiceDefinition, serviceDefinition } from './grpc_definition';
import { MethodRoots } from './method_roots';
import { loadProtoRoot } from './proto_root';

export type { AdminClient, AdminDefinition, ImageServiceClient, ImageServiceDefinition, RuntimeServiceClient, RuntimeServiceDefinition };
export type { ImageServiceV1alpha2Client, ImageServiceV1alpha2Definition, RuntimeServiceV1alpha2Client, RuntimeServiceV1alpha2Definition };
export { CONVERSION_OPTIONS } from './grpc_definition';

export { repoRoot } from '../repo_root';

/** A service constructor as grpc-js makes it, with its definition at `.service`. */
type ServiceConstructor<Client, Definition> = (new (address: string, credentials: grpc.ChannelCredentials, options?: grpc.ClientOptions) => Client) & {
  service: Definition;
};

export interface BerthServices {
  runtime: ServiceConstructor<RuntimeServiceClient, RuntimeServiceDefinition>;
  image: ServiceConstructor<ImageServiceClient, ImageServiceDefinition>;
  admin: ServiceConstructor<AdminClient, AdminDefinition>;
  /** Clients of the older package, as kubelets up to 1.25 speak it. */
  runtimeV1alpha2: ServiceConstructor<RuntimeServiceV1alpha2Client, RuntimeServiceV1alpha2Definition>;
  imageV1alpha2: ServiceConstructor<ImageServiceV1alpha2Client, ImageServiceV1alpha2Definition>;
}

function serviceConstructor<Client, Definition>(root: protobuf.Root, fullName: string): ServiceConstructor<Client, Definition> {
  const definition = serviceDefinition(root.lookupService(fullName));
  const ctor = grpc.makeGenericClientConstructor(definition, fullName);
  return ctor as unknown as ServiceConstructor<Client, Definition>;
}

/**
 * berth's proto roots; `make build` turns each into a JSON descriptor (proto_root.ts). runtime.v1alpha2
 * has a root of its own: only kubelets before 1.26 speak it, so berthd builds it on first use.
 */
export const CRI_PROTO_FILES = ['runtime/v1/api.proto', 'berth/admin/v1/admin.proto'];
export const CRI_V1ALPHA2_PROTO_FILES = ['runtime/v1alpha2/api.proto'];
export const CRI_PROTO_ROOTS = [
  ['cri', CRI_PROTO_FILES],
  ['cri-v1alpha2', CRI_V1ALPHA2_PROTO_FILES],
] as const;

let v1Root: protobuf.Root | undefined;
let v1alpha2Root: protobuf.Root | undefined;
let cached: BerthServices | undefined;

/** runtime.v1 and berth.admin.v1. */
function criRoot(): protobuf.Root {
  v1Root ??= loadProtoRoot('cri', CRI_PROTO_FILES);
  return v1Root;
}

function criV1alpha2Root(): protobuf.Root {
  v1alpha2Root ??= loadProtoRoot('cri-v1alpha2', CRI_V1ALPHA2_PROTO_FILES);
  return v1alpha2Root;
}

/** Service constructors (clients) and their definitions (`.service`); loaded once. */
export function berthServices(): BerthServices {
  if (cached === undefined) {
    const root = criRoot();
    const v1alpha2 = criV1alpha2Root();
    cached = {
      runtime: serviceConstructor(root, 'runtime.v1.RuntimeService'),
      image: serviceConstructor(root, 'runtime.v1.ImageService'),
      admin: serviceConstructor(root, 'berth.admin.v1.Admin'),
      runtimeV1alpha2: serviceConstructor(v1alpha2, 'runtime.v1alpha2.RuntimeService'),
      imageV1alpha2: serviceConstructor(v1alpha2, 'runtime.v1alpha2.ImageService'),
    };
  }
  return cached;
}

/**
 * The server's per-method types of a root (method_roots.ts), read from its descriptor once; undefined
 * without a current descriptor (running from sources), where the server builds whole roots instead.
 */
const methodRootsByName = new Map<string, MethodRoots | undefined>();
function methodRoots(name: string, files: readonly string[]): MethodRoots | undefined {
  if (!methodRootsByName.has(name)) methodRootsByName.set(name, MethodRoots.open(name, files));
  return methodRootsByName.get(name);
}

/** Server definitions of runtime.v1 and berth.admin.v1 (no client constructors), each method's types built on its first call. */
const v1Definitions = new Map<string, grpc.ServiceDefinition>();
function v1Definition(fullName: string): grpc.ServiceDefinition {
  let definition = v1Definitions.get(fullName);
  if (definition === undefined) {
    const roots = methodRoots('cri', CRI_PROTO_FILES);
    definition = roots
      ? lazyServiceDefinition(fullName, roots.methods(fullName), (method, which) => roots.messageType(fullName, method, which))
      : serviceDefinition(criRoot().lookupService(fullName));
    v1Definitions.set(fullName, definition);
  }
  return definition;
}

export const runtimeServiceDefinition = (): RuntimeServiceDefinition => v1Definition('runtime.v1.RuntimeService') as unknown as RuntimeServiceDefinition;
export const imageServiceDefinition = (): ImageServiceDefinition => v1Definition('runtime.v1.ImageService') as unknown as ImageServiceDefinition;
export const adminServiceDefinition = (): AdminDefinition => v1Definition('berth.admin.v1.Admin') as unknown as AdminDefinition;

/**
 * What berthd serves as runtime.v1alpha2 `service` ("RuntimeService" or "ImageService"): its methods
 * and response types, with requests decoded as their runtime.v1 counterparts, so the v1 handlers
 * serve both packages (containerd 1.6 does the same, unmarshalling each v1alpha2 request into v1).
 * Its methods come from the descriptor; each method's types are built when its first call arrives.
 */
export function v1alpha2ServerDefinition(service: 'RuntimeService' | 'ImageService'): grpc.ServiceDefinition {
  const fullName = `runtime.v1alpha2.${service}`;
  const v1Name = `runtime.v1.${service}`;
  const v1 = methodRoots('cri', CRI_PROTO_FILES);
  const v1alpha2 = methodRoots('cri-v1alpha2', CRI_V1ALPHA2_PROTO_FILES);
  if (!v1 || !v1alpha2) return serviceDefinition(criV1alpha2Root().lookupService(fullName), criRoot().lookupService(v1Name));
  const methods = v1alpha2.methods(fullName);
  const v1Methods = new Set(v1.methods(v1Name).map((m) => m.name));
  const missing = methods.find((m) => !v1Methods.has(m.name));
  if (missing) throw new Error(`berth: ${v1Name} has no ${missing.name} to serve ${fullName}/${missing.name}`);
  return lazyServiceDefinition(fullName, methods, (method, which) =>
    which === 'request' ? v1.messageType(v1Name, method, 'request') : v1alpha2.messageType(fullName, method, 'response'),
  );
}

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

// Test clients for a running berthd: promise-returning RuntimeService, ImageService and Admin
// clients over its unix socket (CRI runtime.v1, or runtime.v1alpha2 with criClientV1alpha2), plus
// the raw grpc clients for long-lived streams.
import * as grpc from '@grpc/grpc-js';
import {
  berthServices,
  promiseClient,
  unixTarget,
  type AdminClient,
  type AdminDefinition,
  type ImageServiceClient,
  type ImageServiceDefinition,
  type ImageServiceV1alpha2Client,
  type ImageServiceV1alpha2Definition,
  type PromiseClient,
  type RuntimeServiceClient,
  type RuntimeServiceDefinition,
  type RuntimeServiceV1alpha2Client,
  type RuntimeServiceV1alpha2Definition,
} from '../../internal/api/cri';

export interface CriClient {
  runtime: PromiseClient<RuntimeServiceClient, RuntimeServiceDefinition>;
  image: PromiseClient<ImageServiceClient, ImageServiceDefinition>;
  admin: PromiseClient<AdminClient, AdminDefinition>;
  /** The generated clients, for streams that never end on their own (GetContainerEvents). */
  raw: { runtime: RuntimeServiceClient; image: ImageServiceClient; admin: AdminClient };
  close(): void;
}

/**
 * `const c = criClient(sock); await c.runtime.Version({}); c.close();`
 * `channelOptions` go to each of the three grpc-js clients.
 */
export function criClient(socketPath: string, channelOptions?: grpc.ClientOptions): CriClient {
  const services = berthServices();
  const target = unixTarget(socketPath);
  const credentials = grpc.credentials.createInsecure();
  const raw = {
    runtime: new services.runtime(target, credentials, channelOptions),
    image: new services.image(target, credentials, channelOptions),
    admin: new services.admin(target, credentials, channelOptions),
  };
  return {
    runtime: promiseClient(raw.runtime, services.runtime.service),
    image: promiseClient(raw.image, services.image.service),
    admin: promiseClient(raw.admin, services.admin.service),
    raw,
    close: () => {
      raw.runtime.close();
      raw.image.close();
      raw.admin.close();
    },
  };
}

export interface CriClientV1alpha2 {
  runtime: PromiseClient<RuntimeServiceV1alpha2Client, RuntimeServiceV1alpha2Definition>;
  image: PromiseClient<ImageServiceV1alpha2Client, ImageServiceV1alpha2Definition>;
  raw: { runtime: RuntimeServiceV1alpha2Client; image: ImageServiceV1alpha2Client };
  close(): void;
}

/** Like criClient, in CRI runtime.v1alpha2 as kubelets up to 1.25 speak it (its own message types). */
export function criClientV1alpha2(socketPath: string, channelOptions?: grpc.ClientOptions): CriClientV1alpha2 {
  const services = berthServices();
  const target = unixTarget(socketPath);
  const credentials = grpc.credentials.createInsecure();
  const raw = {
    runtime: new services.runtimeV1alpha2(target, credentials, channelOptions),
    image: new services.imageV1alpha2(target, credentials, channelOptions),
  };
  return {
    runtime: promiseClient(raw.runtime, services.runtimeV1alpha2.service),
    image: promiseClient(raw.image, services.imageV1alpha2.service),
    raw,
    close: () => {
      raw.runtime.close();
      raw.image.close();
    },
  };
}

/**
 * Reads `count` messages from a server stream, then cancels it. Rejects if the stream fails or
 * ends first, or after `timeoutMs` (a guard against hanging tests, not a timing assertion).
 */
export function readStream<T>(stream: grpc.ClientReadableStream<T>, count: number, timeoutMs = 30_000): Promise<T[]> {
  return new Promise((resolve, reject) => {
    const items: T[] = [];
    let settled = false;
    const finish = (err?: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      stream.removeAllListeners('data');
      stream.on('error', () => undefined); // the cancel below surfaces as CANCELLED
      stream.cancel();
      if (err) reject(err);
      else resolve(items);
    };
    const timer = setTimeout(() => finish(new Error(`stream: ${items.length} of ${count} messages after ${timeoutMs} ms`)), timeoutMs);
    stream.on('data', (item: T) => {
      items.push(item);
      if (items.length >= count) finish();
    });
    stream.on('error', (err: Error) => finish(err));
    stream.on('end', () => finish(new Error(`stream ended after ${items.length} of ${count} messages`)));
  });
}

/** The gRPC code of a rejected call, for `expect(await codeOf(p)).toBe(status.NOT_FOUND)`. */
export async function callError(promise: Promise<unknown>): Promise<grpc.ServiceError> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof Error && typeof (err as Partial<grpc.ServiceError>).code === 'number') return err as grpc.ServiceError;
    throw err;
  }
  throw new Error('expected the call to fail');
}

// berthctl's connection to berthd: promise clients for the CRI runtime and image services and
// berth's admin service, over the daemon's unix socket; the raw admin client for streams (export).
import * as grpc from '@grpc/grpc-js';
import {
  berthServices,
  promiseClient,
  unixTarget,
  type AdminClient,
  type AdminDefinition,
  type ImageServiceClient,
  type ImageServiceDefinition,
  type PromiseClient,
  type RuntimeServiceClient,
  type RuntimeServiceDefinition,
} from '../../internal/api/cri';

export interface DaemonClient {
  runtime: PromiseClient<RuntimeServiceClient, RuntimeServiceDefinition>;
  image: PromiseClient<ImageServiceClient, ImageServiceDefinition>;
  admin: PromiseClient<AdminClient, AdminDefinition>;
  /** For server streams read as they come (ExportImage). */
  adminRaw: AdminClient;
  close(): void;
}

export function connectDaemon(socketPath: string): DaemonClient {
  const services = berthServices();
  const target = unixTarget(socketPath);
  const credentials = grpc.credentials.createInsecure();
  // One channel for the three services: grpc-js shares it when target and options match.
  const runtime = new services.runtime(target, credentials);
  const image = new services.image(target, credentials);
  const admin = new services.admin(target, credentials);
  return {
    runtime: promiseClient(runtime, services.runtime.service),
    image: promiseClient(image, services.image.service),
    admin: promiseClient(admin, services.admin.service),
    adminRaw: admin,
    close: () => {
      runtime.close();
      image.close();
      admin.close();
    },
  };
}

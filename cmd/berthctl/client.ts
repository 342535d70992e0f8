// berthctl's connection to berthd: promise clients for the CRI runtime service and berth's admin
// service, over the daemon's unix socket.
import * as grpc from '@grpc/grpc-js';
import {
  berthServices,
  promiseClient,
  unixTarget,
  type AdminClient,
  type AdminDefinition,
  type PromiseClient,
  type RuntimeServiceClient,
  type RuntimeServiceDefinition,
} from '../../internal/api/cri';

export interface DaemonClient {
  runtime: PromiseClient<RuntimeServiceClient, RuntimeServiceDefinition>;
  admin: PromiseClient<AdminClient, AdminDefinition>;
  close(): void;
}

export function connectDaemon(socketPath: string): DaemonClient {
  const services = berthServices();
  const target = unixTarget(socketPath);
  const credentials = grpc.credentials.createInsecure();
  const runtime = new services.runtime(target, credentials);
  const admin = new services.admin(target, credentials);
  return {
    runtime: promiseClient(runtime, services.runtime.service),
    admin: promiseClient(admin, services.admin.service),
    close: () => {
      runtime.close();
      admin.close();
    },
  };
}

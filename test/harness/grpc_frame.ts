// The CRI gRPC frame served in-process (createGrpcServer) on a unix socket, for tests that give it
// their own handlers instead of a whole berthd.
import * as grpc from '@grpc/grpc-js';
import { unixTarget } from '../../internal/api/cri';
import { createGrpcServer } from '../../internal/cri/server/grpc_server';
import type { HandlerRegistry } from '../../internal/cri/server/registry';
import type { CriService } from '../../internal/cri/server/service';

/** Binds the frame for `svc` and `registry` on `socket`; the caller force-shuts it down. */
export async function serveFrame(svc: CriService, registry: HandlerRegistry, socket: string): Promise<grpc.Server> {
  const server = createGrpcServer(svc, registry);
  await new Promise<void>((resolve, reject) =>
    server.bindAsync(unixTarget(socket), grpc.ServerCredentials.createInsecure(), (err) => (err ? reject(err) : resolve())),
  );
  return server;
}

// The gRPC face of the CRI server: a grpc-js handler for EVERY method of RuntimeService,
// ImageService (in runtime.v1 and runtime.v1alpha2) and Admin. Registered methods run their handler,
// with thrown errors mapped to gRPC codes (errdefs/grpc.ts) and each call logged with its method and
// IDs; the rest answer UNIMPLEMENTED naming the method, so a client learns exactly what berth lacks.
// One handler serves a method in both CRI packages: v1alpha2 requests arrive decoded as v1. Every
// method, whatever it answers, is measured for the metrics (rpc_metrics.ts).
import * as grpc from '@grpc/grpc-js';
import { adminServiceDefinition, imageServiceDefinition, runtimeServiceDefinition, v1alpha2ServerDefinition } from '../../api/cri';
import { clipText, MAX_ERROR_CHARS } from '../../errdefs/clip_text';
import { kindOf, messageOf, StoppingError, type ErrorKind } from '../../errdefs/errors';
import { toServiceError } from '../../errdefs/grpc';
import type { LogFields } from '../../log/logger';
import type { HandlerRegistry, RegisteredHandler, ServiceName } from './registry';
import { observeRpc } from './rpc_metrics';
import type { CriService } from './service';

// Errors that say "the caller asked for something wrong" are warnings; the rest are ours.
const CALLER_ERRORS: ReadonlySet<ErrorKind> = new Set<ErrorKind>([
  'NotFound',
  'AlreadyExists',
  'InvalidArgument',
  'FailedPrecondition',
  'Unimplemented',
  'Canceled',
  'DeadlineExceeded',
]);

// Request fields worth a log line: the IDs an operator greps for.
const ID_FIELDS = ['pod_sandbox_id', 'container_id', 'exec_id'];

function idsOf(req: unknown): LogFields {
  const fields: LogFields = {};
  if (req === null || typeof req !== 'object') return fields;
  const r = req as Record<string, unknown>;
  for (const key of ID_FIELDS) if (typeof r[key] === 'string' && r[key] !== '') fields[key] = r[key];
  const image = r.image as { image?: unknown } | null | undefined;
  if (image && typeof image.image === 'string' && image.image !== '') fields.image = image.image;
  const config = r.config as { metadata?: { name?: unknown } | null } | null | undefined;
  if (typeof config?.metadata?.name === 'string') fields.name = config.metadata.name;
  return fields;
}

/** "runtime.v1.RuntimeService/Version" from the method path "/runtime.v1.RuntimeService/Version". */
function fullMethodName(def: grpc.MethodDefinition<unknown, unknown>): string {
  return def.path.replace(/^\//, '');
}

function unimplemented(method: string): Partial<grpc.ServiceError> {
  return { code: grpc.status.UNIMPLEMENTED, details: `${method} is not implemented by berth` };
}

function logFailure(svc: CriService, method: string, fields: LogFields, err: unknown): void {
  // A stop ending a call on purpose is neither the caller's fault nor a failure of berth's.
  const level = err instanceof StoppingError ? 'info' : CALLER_ERRORS.has(kindOf(err)) ? 'warn' : 'error';
  svc.logger[level]('rpc failed', { method, ...fields, error: clipText(messageOf(err), MAX_ERROR_CHARS) });
}

function unaryHandler(svc: CriService, method: string, handler: RegisteredHandler): grpc.handleUnaryCall<unknown, unknown> {
  return (call, callback) => {
    const fields = idsOf(call.request);
    const started = Date.now();
    handler(svc, call.request, call)
      .then(async (res) => {
        // What the call wrote is on disk before the caller hears it was done (db.ts durable()).
        await svc.deps.db?.durable();
        return res;
      })
      .then(
        (res) => {
          svc.logger.debug('rpc done', { method, ...fields, ms: Date.now() - started });
          callback(null, res);
        },
        (err: unknown) => {
          logFailure(svc, method, fields, err);
          callback(toServiceError(err));
        },
      );
  };
}

function streamHandler(
  svc: CriService,
  method: string,
  handler: RegisteredHandler,
): grpc.handleServerStreamingCall<unknown, unknown> {
  return (call) => {
    const fields = idsOf(call.request);
    handler(svc, call.request, call).then(
      () => {
        svc.logger.debug('rpc stream done', { method, ...fields });
        call.end();
      },
      (err: unknown) => {
        logFailure(svc, method, fields, err);
        // grpc-js turns an 'error' on a server stream into the call's status and ends it.
        call.emit('error', toServiceError(err));
      },
    );
  };
}

function implementation(
  svc: CriService,
  registry: HandlerRegistry,
  service: ServiceName,
  definition: grpc.ServiceDefinition,
): grpc.UntypedServiceImplementation {
  const impl: grpc.UntypedServiceImplementation = {};
  for (const [name, def] of Object.entries(definition)) {
    const method = fullMethodName(def);
    const handler = registry.lookup(service, name);
    if (def.requestStream) {
      // CRI has no client-streaming RPCs; answer any such method without reading its input.
      impl[name] = ((call: grpc.ServerReadableStream<unknown, unknown>, cb: grpc.sendUnaryData<unknown>) => {
        call.resume();
        cb(unimplemented(method));
      }) as grpc.handleClientStreamingCall<unknown, unknown>;
    } else if (def.responseStream) {
      impl[name] = handler
        ? streamHandler(svc, method, handler)
        : (call: grpc.ServerWritableStream<unknown, unknown>) => call.emit('error', unimplemented(method));
    } else {
      impl[name] = handler
        ? unaryHandler(svc, method, handler)
        : (_call: grpc.ServerUnaryCall<unknown, unknown>, cb: grpc.sendUnaryData<unknown>) => cb(unimplemented(method));
    }
    impl[name] = observeRpc(def, impl[name]!);
  }
  return impl;
}

/** A grpc-js server with all of berth's services added; the caller binds and starts it. */
export function createGrpcServer(svc: CriService, registry: HandlerRegistry, options?: grpc.ServerOptions): grpc.Server {
  const server = new grpc.Server({
    // CRI messages (ListContainers on a busy node, image lists) can be large; containerd allows 16 MiB.
    'grpc.max_receive_message_length': 16 * 1024 * 1024,
    'grpc.max_send_message_length': 16 * 1024 * 1024,
    ...options,
  });
  server.addService(runtimeServiceDefinition(), implementation(svc, registry, 'RuntimeService', runtimeServiceDefinition()));
  server.addService(imageServiceDefinition(), implementation(svc, registry, 'ImageService', imageServiceDefinition()));
  server.addService(adminServiceDefinition(), implementation(svc, registry, 'Admin', adminServiceDefinition()));
  // kubelets before 1.23 speak only runtime.v1alpha2; 1.23-1.25 fall back to it.
  for (const service of ['RuntimeService', 'ImageService'] as const) {
    const definition = v1alpha2ServerDefinition(service);
    server.addService(definition, implementation(svc, registry, service, definition));
  }
  return server;
}

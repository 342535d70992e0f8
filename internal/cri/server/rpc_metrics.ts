// The one hook that gives every RPC (every service, both CRI packages, implemented or not) its
// grpc_server_started_total / handled_total / handling_seconds, labelled as go-grpc-prometheus
// labels them for containerd: the full service name ("runtime.v1alpha2.RuntimeService"), the
// method, the call type and the status code the client got.
import * as grpc from '@grpc/grpc-js';
import { metrics, stopwatch, type RpcType } from '../../metrics';

type AnyDefinition = grpc.MethodDefinition<unknown, unknown>;

function rpcType(def: AnyDefinition): RpcType {
  if (def.requestStream) return def.responseStream ? 'bidi_stream' : 'client_stream';
  return def.responseStream ? 'server_stream' : 'unary';
}

/** Starts one call's measurement; the returned function records its end, once. */
function begin(service: string, method: string, type: RpcType): (code: number) => void {
  const recorder = metrics();
  recorder.rpcStarted(service, method, type);
  const elapsed = stopwatch();
  let done = false;
  return (code) => {
    if (done) return;
    done = true;
    recorder.rpcHandled(service, method, type, code, elapsed());
  };
}

const codeOf = (err: { code?: unknown } | null | undefined): number =>
  err ? (typeof err.code === 'number' ? err.code : grpc.status.UNKNOWN) : grpc.status.OK;

/** `impl` with its calls measured. */
export function observeRpc(def: AnyDefinition, impl: grpc.UntypedHandleCall): grpc.UntypedHandleCall {
  const [service = '', method = ''] = def.path.replace(/^\//, '').split('/');
  const type = rpcType(def);
  // grpc_server.ts answers every client-streaming method (CRI has none) as a unary one: (call, callback).
  if (def.responseStream && !def.requestStream) {
    const handle = impl as (call: grpc.ServerWritableStream<unknown, unknown>) => void;
    return ((call: grpc.ServerWritableStream<unknown, unknown>) => {
      const end = begin(service, method, type);
      // Whichever comes first is the status the client saw: a cancel, an error status, or end().
      call.once('cancelled', () => end(grpc.status.CANCELLED));
      call.once('error', (err: { code?: unknown }) => end(codeOf(err)));
      call.once('finish', () => end(grpc.status.OK));
      handle(call);
    }) as grpc.UntypedHandleCall;
  }
  const handle = impl as (call: unknown, callback: grpc.sendUnaryData<unknown>) => void;
  return ((call: unknown, callback: grpc.sendUnaryData<unknown>) => {
    const end = begin(service, method, type);
    handle(call, (err, value, trailer, flags) => {
      end(codeOf(err));
      callback(err, value, trailer, flags);
    });
  }) as grpc.UntypedHandleCall;
}

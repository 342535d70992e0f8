// The end of a gRPC call as an AbortSignal: a client that cancels, disconnects or runs out of its
// deadline ends what the call started, as containerd's handlers end with their request's context.
import type { ServerUnaryCall } from '@grpc/grpc-js';

/** What of a unary call tells that it ended. */
export type CallEnd = Pick<ServerUnaryCall<unknown, unknown>, 'once' | 'cancelled'>;

/** Aborts when `call` is cancelled (at once if it already is). */
export function callSignal(call: CallEnd): AbortSignal {
  const ended = new AbortController();
  if (call.cancelled) ended.abort();
  else call.once('cancelled', () => ended.abort());
  return ended.signal;
}

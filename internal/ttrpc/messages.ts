// The two envelope messages of ttRPC (ttrpc.Request / ttrpc.Response) and the mapping between
// google.rpc.Status codes and berth's error kinds.
import { codec, TypeNames } from '../api/containerd';
import type { Request, Request__Output } from '../api/gen/ttrpc/Request';
import type { Response, Response__Output } from '../api/gen/ttrpc/Response';
import { messageOf } from '../errdefs/errors';
import { fromGrpcCode, grpcCodeOf } from '../errdefs/grpc';
import type { BerthError } from '../errdefs/errors';

export const requestCodec = codec<Request, Request__Output>(TypeNames.TtrpcRequest);
export const responseCodec = codec<Response, Response__Output>(TypeNames.TtrpcResponse);

export const STATUS_OK = 0;

/** The Response a server sends for a handler error: the kind's gRPC code and the message. */
export function errorResponse(err: unknown): Response {
  return { status: { code: grpcCodeOf(err), message: messageOf(err) } };
}

/** The error a client raises for a non-OK status, with the kind the code maps to. */
export function statusError(code: number, message: string, service: string, method: string): BerthError {
  return fromGrpcCode(code, `ttrpc ${service}/${method}: ${message}`, message);
}

// The server boundary's half of errdefs: error kind <-> gRPC status code.
import { status as GrpcStatus, type ServiceError, Metadata } from '@grpc/grpc-js';
import { grpcMessageText } from './clip_text';
import { BerthError, type ErrorKind, kindOf, messageOf } from './errors';

const KIND_TO_CODE: Record<ErrorKind, GrpcStatus> = {
  NotFound: GrpcStatus.NOT_FOUND,
  AlreadyExists: GrpcStatus.ALREADY_EXISTS,
  InvalidArgument: GrpcStatus.INVALID_ARGUMENT,
  FailedPrecondition: GrpcStatus.FAILED_PRECONDITION,
  Unavailable: GrpcStatus.UNAVAILABLE,
  Unimplemented: GrpcStatus.UNIMPLEMENTED,
  DeadlineExceeded: GrpcStatus.DEADLINE_EXCEEDED,
  Aborted: GrpcStatus.ABORTED,
  ResourceExhausted: GrpcStatus.RESOURCE_EXHAUSTED,
  Canceled: GrpcStatus.CANCELLED,
  PermissionDenied: GrpcStatus.PERMISSION_DENIED,
  Internal: GrpcStatus.UNKNOWN,
};

const CODE_TO_KIND = new Map<number, ErrorKind>(
  Object.entries(KIND_TO_CODE).map(([kind, code]) => [code, kind as ErrorKind]),
);

export function grpcCodeOf(err: unknown): GrpcStatus {
  return KIND_TO_CODE[kindOf(err)];
}

/** The error a grpc-js handler passes to its callback, its text bounded (clip_text.ts). */
export function toServiceError(err: unknown): Partial<ServiceError> {
  return { code: grpcCodeOf(err), details: grpcMessageText(messageOf(err)), metadata: new Metadata() };
}

/** Maps a gRPC (or ttRPC google.rpc.Status) code back to a kind, for clients of other services. */
export function fromGrpcCode(code: number, message: string): BerthError {
  return new BerthError(CODE_TO_KIND.get(code) ?? 'Internal', message);
}

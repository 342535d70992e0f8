// The server boundary's half of errdefs: error kind <-> gRPC status code.
import { status as GrpcStatus, type ServiceError, Metadata } from '@grpc/grpc-js';
import { grpcMessageText } from './clip_text';
import { BerthError, causeChain, type ErrorKind, kindOf, messageOf } from './errors';

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
export function fromGrpcCode(code: number, message: string, remoteMessage?: string): BerthError {
  const kind = CODE_TO_KIND.get(code) ?? 'Internal';
  return remoteMessage === undefined ? new BerthError(kind, message) : new RemoteError(kind, message, remoteMessage);
}

/** An error another service answered, keeping its own message apart from our context around it. */
export class RemoteError extends BerthError {
  constructor(
    kind: ErrorKind,
    message: string,
    readonly remoteMessage: string,
  ) {
    super(kind, message);
  }
}

/** The message the service itself gave, for the first RemoteError in `err`'s cause chain. */
export function remoteMessageOf(err: unknown): string | undefined {
  for (const e of causeChain(err)) if (e instanceof RemoteError) return e.remoteMessage;
  return undefined;
}

/** containerd's errdefs class names, which its FromGRPC appends to a remote message (": unknown"). */
const ERRDEFS_CLASS: Partial<Record<ErrorKind, string>> = {
  NotFound: 'not found',
  AlreadyExists: 'already exists',
  InvalidArgument: 'invalid argument',
  FailedPrecondition: 'failed precondition',
  Unavailable: 'unavailable',
  Unimplemented: 'not implemented',
  DeadlineExceeded: 'context deadline exceeded',
  Canceled: 'context canceled',
};

/** `message` as containerd's errdefs.FromGRPC words a remote error of `kind`: "<message>: <class>". */
export function withErrdefsClass(kind: ErrorKind, message: string): string {
  const cls = ERRDEFS_CLASS[kind] ?? 'unknown';
  return message.endsWith(`: ${cls}`) ? message : `${message}: ${cls}`;
}

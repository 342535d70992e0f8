// gRPC status codes as go-grpc-prometheus labels them (Go's codes.Code.String()), so dashboards
// written for containerd's grpc_server_handled_total work on berth's unchanged.
const NAMES = [
  'OK',
  'Canceled',
  'Unknown',
  'InvalidArgument',
  'DeadlineExceeded',
  'NotFound',
  'AlreadyExists',
  'PermissionDenied',
  'ResourceExhausted',
  'FailedPrecondition',
  'Aborted',
  'OutOfRange',
  'Unimplemented',
  'Internal',
  'Unavailable',
  'DataLoss',
  'Unauthenticated',
] as const;

export function grpcCodeName(code: number): string {
  return NAMES[code] ?? `Code(${code})`;
}

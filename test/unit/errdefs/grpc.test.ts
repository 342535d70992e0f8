import { status } from '@grpc/grpc-js';
import * as errdefs from '../../../internal/errdefs/errors';
import { fromGrpcCode, grpcCodeOf, toServiceError } from '../../../internal/errdefs/grpc';

describe('errdefs -> gRPC codes', () => {
  const cases: Array<[(m: string) => errdefs.BerthError, status]> = [
    [errdefs.notFound, status.NOT_FOUND],
    [errdefs.alreadyExists, status.ALREADY_EXISTS],
    [errdefs.invalidArgument, status.INVALID_ARGUMENT],
    [errdefs.failedPrecondition, status.FAILED_PRECONDITION],
    [errdefs.unavailable, status.UNAVAILABLE],
    [errdefs.unimplemented, status.UNIMPLEMENTED],
    [errdefs.deadlineExceeded, status.DEADLINE_EXCEEDED],
    [errdefs.aborted, status.ABORTED],
    [errdefs.resourceExhausted, status.RESOURCE_EXHAUSTED],
    [errdefs.canceled, status.CANCELLED],
    [errdefs.permissionDenied, status.PERMISSION_DENIED],
    [errdefs.internal, status.UNKNOWN],
  ];

  it.each(cases)('%p maps to its code and keeps the message', (make, code) => {
    const err = make('container "abc" not found');
    expect(grpcCodeOf(err)).toBe(code);
    const se = toServiceError(err);
    expect(se.code).toBe(code);
    expect(se.details).toBe('container "abc" not found');
  });

  it('a plain Error is UNKNOWN with its message', () => {
    const se = toServiceError(new Error('boom'));
    expect(se.code).toBe(status.UNKNOWN);
    expect(se.details).toBe('boom');
  });

  it('wrap keeps the kind and adds context', () => {
    const err = errdefs.wrap(errdefs.notFound('snapshot k1'), 'create container c1');
    expect(grpcCodeOf(err)).toBe(status.NOT_FOUND);
    expect(err.message).toBe('create container c1: snapshot k1');
  });

  it('codes map back to kinds', () => {
    expect(fromGrpcCode(status.NOT_FOUND, 'x').kind).toBe('NotFound');
    expect(fromGrpcCode(status.FAILED_PRECONDITION, 'x').kind).toBe('FailedPrecondition');
    expect(fromGrpcCode(status.CANCELLED, 'x').kind).toBe('Canceled');
    expect(fromGrpcCode(status.INTERNAL, 'x').kind).toBe('Internal');
    expect(errdefs.isNotFound(fromGrpcCode(status.NOT_FOUND, 'x'))).toBe(true);
  });
});

// Error kinds shared by every layer. Lower layers throw these; only the server boundary maps them
// to gRPC codes (grpc.ts), so a store or the snapshotter never knows about gRPC.

export type ErrorKind =
  | 'NotFound'
  | 'AlreadyExists'
  | 'InvalidArgument'
  | 'FailedPrecondition'
  | 'Unavailable'
  | 'Unimplemented'
  | 'DeadlineExceeded'
  | 'Aborted'
  | 'ResourceExhausted'
  | 'Canceled'
  | 'PermissionDenied'
  | 'Internal';

export class BerthError extends Error {
  constructor(
    readonly kind: ErrorKind,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = `BerthError(${kind})`;
  }
}

/** A call cut short because berthd is stopping: UNAVAILABLE, which a client retries on the next start. */
export class StoppingError extends BerthError {
  constructor(message: string) {
    super('Unavailable', message);
  }
}

const make = (kind: ErrorKind) => (message: string, cause?: unknown) =>
  new BerthError(kind, message, cause === undefined ? undefined : { cause });

export const notFound = make('NotFound');
export const alreadyExists = make('AlreadyExists');
export const invalidArgument = make('InvalidArgument');
export const failedPrecondition = make('FailedPrecondition');
export const unavailable = make('Unavailable');
export const unimplemented = make('Unimplemented');
export const deadlineExceeded = make('DeadlineExceeded');
export const aborted = make('Aborted');
export const resourceExhausted = make('ResourceExhausted');
export const canceled = make('Canceled');
export const permissionDenied = make('PermissionDenied');
export const internal = make('Internal');

/** A disk that is full (or over quota), whatever call found it out, as a full database reports it. */
const NO_SPACE = new Set(['ENOSPC', 'EDQUOT']);

export function kindOf(err: unknown): ErrorKind {
  if (err instanceof BerthError) return err.kind;
  return NO_SPACE.has((err as NodeJS.ErrnoException | undefined)?.code ?? '') ? 'ResourceExhausted' : 'Internal';
}

export const isNotFound = (err: unknown): boolean => kindOf(err) === 'NotFound';
export const isAlreadyExists = (err: unknown): boolean => kindOf(err) === 'AlreadyExists';
export const isFailedPrecondition = (err: unknown): boolean => kindOf(err) === 'FailedPrecondition';
export const isUnavailable = (err: unknown): boolean => kindOf(err) === 'Unavailable';

/** Adds context to an error while keeping its kind: `wrap(err, "create container abc")`. */
export function wrap(err: unknown, context: string): BerthError {
  const message = err instanceof Error ? err.message : String(err);
  return new BerthError(kindOf(err), `${context}: ${message}`, { cause: err });
}

/** `err` and the errors it was made from (Error.cause), outermost first, at most 16 deep. */
export function* causeChain(err: unknown): Generator<Error> {
  for (let e: unknown = err, depth = 0; e instanceof Error && depth < 16; e = e.cause, depth++) yield e;
}

export function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

// berthctl's exit codes and error lines, stable for scripts (README "operating berth"):
//   0  done
//   1  berthd answered with an error, or the operation failed (the gRPC code is named)
//   2  usage: unknown verb or flag, missing or extra argument, bad flag value
//   3  berthd cannot be reached on its socket (not running, wrong --address, no permission)
// Errors go to stderr as one line: "berthctl: VERB: MESSAGE (GRPC_CODE)" — the code only when berthd sent one.

export const EXIT_OK = 0;
export const EXIT_FAILED = 1;
export const EXIT_USAGE = 2;
export const EXIT_UNREACHABLE = 3;

/** A mistake in the command line, found after parsing (a bad flag value, a missing argument). */
export class UsageError extends Error {}

/** A failure berthctl itself reports (no gRPC code): exit 1 with this message. */
export class CommandError extends Error {}

interface GrpcLikeError {
  code: number;
  details: string;
}

// @grpc/grpc-js's status numbers, named here so an error path does not load grpc-js.
const GRPC_CODE_NAMES = [
  'OK', 'CANCELLED', 'UNKNOWN', 'INVALID_ARGUMENT', 'DEADLINE_EXCEEDED', 'NOT_FOUND', 'ALREADY_EXISTS',
  'PERMISSION_DENIED', 'RESOURCE_EXHAUSTED', 'FAILED_PRECONDITION', 'ABORTED', 'OUT_OF_RANGE',
  'UNIMPLEMENTED', 'INTERNAL', 'UNAVAILABLE', 'DATA_LOSS', 'UNAUTHENTICATED',
];
const UNAVAILABLE = 14;
const DEADLINE_EXCEEDED = 4;

function isGrpcError(err: unknown): err is Error & GrpcLikeError {
  return err instanceof Error && typeof (err as Partial<GrpcLikeError>).code === 'number' && typeof (err as Partial<GrpcLikeError>).details === 'string';
}

const SOCKET_ERRNO: Record<string, string> = {
  ENOENT: 'no socket there (is berthd running? see --address)',
  ECONNREFUSED: 'nothing answers on the socket (is berthd running?)',
  EACCES: 'permission denied (berthd\'s socket is root-only)',
  ENOTSOCK: 'not a socket',
};

/** grpc-js's "No connection established. Last error: Error: connect ENOENT ..." said plainly. */
function unreachableReason(details: string): string {
  const errno = /\b(E[A-Z]{3,})\b/.exec(details)?.[1];
  if (errno !== undefined) return SOCKET_ERRNO[errno] ?? errno;
  return details;
}

/** The exit code and the stderr line for an error that ended `verb`. */
export function describeFailure(verb: string, err: unknown, address: string): { code: number; line: string } {
  if (err instanceof UsageError) return { code: EXIT_USAGE, line: `berthctl: ${verb}: ${err.message}` };
  if (isGrpcError(err)) {
    const name = GRPC_CODE_NAMES[err.code] ?? String(err.code);
    // Connection failures come back as UNAVAILABLE (or a deadline on connect) before berthd said anything.
    if (err.code === UNAVAILABLE || (err.code === DEADLINE_EXCEEDED && /connect|Waiting for LB pick/i.test(err.details))) {
      return { code: EXIT_UNREACHABLE, line: `berthctl: ${verb}: cannot reach berthd at ${address}: ${unreachableReason(err.details)} (${name})` };
    }
    return { code: EXIT_FAILED, line: `berthctl: ${verb}: ${err.details} (${name})` };
  }
  const message = err instanceof Error ? err.message : String(err);
  return { code: EXIT_FAILED, line: `berthctl: ${verb}: ${message}` };
}

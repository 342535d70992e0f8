// How the bench tells "this daemon does not do that yet" (a figure shown as n/a) from a failure.
import { status as GrpcStatus, type ServiceError } from '@grpc/grpc-js';

/** A peer answered UNIMPLEMENTED (over gRPC, or through its CLI). */
export class Unimplemented extends Error {
  constructor(
    what: string,
    /** The call that is missing, shown in the figure's n/a. */
    readonly rpc: string,
  ) {
    super(`${what}: UNIMPLEMENTED`);
    this.name = 'Unimplemented';
  }
}

/** The run was interrupted (SIGINT): scenarios stop at their next step. */
export class Aborted extends Error {
  constructor() {
    super('bench interrupted');
    this.name = 'Aborted';
  }
}

/** One CRI call failed: keeps which one, so a figure's n/a can say where a peer stopped. */
export class RpcFailed extends Error {
  constructor(
    readonly rpc: string,
    readonly reason: unknown,
  ) {
    super(`${rpc}: ${messageOf(reason)}`);
    this.name = 'RpcFailed';
  }
}

function isServiceError(err: unknown): err is ServiceError {
  return err instanceof Error && typeof (err as Partial<ServiceError>).code === 'number';
}

export function isUnimplemented(err: unknown): boolean {
  if (err instanceof RpcFailed) return isUnimplemented(err.reason);
  return err instanceof Unimplemented || (isServiceError(err) && err.code === GrpcStatus.UNIMPLEMENTED);
}

export function messageOf(err: unknown): string {
  if (isServiceError(err)) return `${err.details || err.message} (${GrpcStatus[err.code] ?? err.code})`;
  return err instanceof Error ? err.message : String(err);
}

// Runs one verb against berthd: connects (grpc-js is loaded only now), calls, closes, and turns
// what went wrong into berthctl's exit code and error line (errors.ts).
import { connectDaemon, type DaemonClient } from './client';
import { describeFailure, EXIT_OK } from './errors';

export interface GlobalOptions {
  /** berthd's socket path. */
  address: string;
}

/** A deadline for a call that should answer quickly; a stuck daemon must not hang a script. */
export const quick = () => ({ deadline: Date.now() + 30_000 });
/** Pulls, imports, exports and GC may take long. */
export const slow = () => ({ deadline: Date.now() + 3_600_000 });

export async function runVerb(verb: string, global: GlobalOptions, fn: (c: DaemonClient) => Promise<number | void>): Promise<number> {
  const client = connectDaemon(global.address);
  try {
    return (await fn(client)) ?? EXIT_OK;
  } catch (err) {
    const failure = describeFailure(verb, err, global.address);
    process.stderr.write(`${failure.line}\n`);
    return failure.code;
  } finally {
    client.close();
  }
}

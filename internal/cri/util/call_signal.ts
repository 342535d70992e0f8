// The end of a gRPC call as an AbortSignal: a client that cancels, disconnects or runs out of its
// deadline ends what the call started, as containerd's handlers end with their request's context.
import type { ServerUnaryCall } from '@grpc/grpc-js';
import { canceled } from '../../errdefs/errors';
import { whenSettled } from './settle_listeners';

/** What of a unary call tells that it ended. */
export type CallEnd = Pick<ServerUnaryCall<unknown, unknown>, 'once' | 'cancelled'>;
/** What of a unary call tells by when its client needs the answer. */
export type CallDeadline = Pick<ServerUnaryCall<unknown, unknown>, 'getDeadline'>;

/** The call's deadline in ms since the epoch; undefined when the client set none. */
export function callDeadlineMs(call: CallDeadline): number | undefined {
  const deadline = call.getDeadline();
  const ms = deadline instanceof Date ? deadline.getTime() : deadline;
  return Number.isFinite(ms) ? ms : undefined;
}

/** Aborts when `call` is cancelled (at once if it already is). */
export function callSignal(call: CallEnd): AbortSignal {
  const ended = new AbortController();
  if (call.cancelled) ended.abort();
  else call.once('cancelled', () => ended.abort());
  return ended.signal;
}

/**
 * `work`'s outcome, unless `ended` aborts first: then a Canceled error saying what was being
 * waited for, while `work` goes on unwatched (the caller arranges what must follow it). A call
 * waiting on a shim that cannot answer ends with its caller, as containerd's waits end with the
 * request's context, instead of holding its locks forever.
 */
export function unlessEnded<T>(work: Promise<T>, ended: AbortSignal | undefined, waitingFor: string): Promise<T> {
  if (ended === undefined) return work;
  if (ended.aborted) return Promise.reject(canceled(`the caller went away while ${waitingFor}`));
  return new Promise<T>((resolve, reject) => {
    // whenSettled, not then(): `work` may be a task's exit, pending long after this caller left.
    const stopWatching = whenSettled(
      work,
      (value) => {
        ended.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (reason) => {
        ended.removeEventListener('abort', onAbort);
        reject(reason);
      },
    );
    const onAbort = () => {
      stopWatching();
      reject(canceled(`the caller went away while ${waitingFor}`));
    };
    ended.addEventListener('abort', onAbort, { once: true });
  });
}

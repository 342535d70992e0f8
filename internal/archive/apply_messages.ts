// What berthd's thread and a layer-apply worker (apply_worker.ts) say to each other: one layer per
// job, its blob's bytes in chunks the worker acknowledges (so at most a few are queued), and the
// outcome. A BerthError crosses as its kind and message; anything else as Internal.
import { BerthError, kindOf, messageOf, type ErrorKind } from '../errdefs/errors';
import type { ApplyOptions, ApplyResult } from './apply';

export type ToWorker =
  | { type: 'job'; target: string; opts: ApplyOptions }
  | { type: 'chunk'; data: Uint8Array }
  | { type: 'end' }
  /** The blob could not be read further: the job ends with this message. */
  | { type: 'abort'; message: string };

export type FromWorker =
  /** One chunk taken off the worker's queue: room for another. */
  | { type: 'ack' }
  | { type: 'done'; result: ApplyResult }
  | { type: 'failed'; error: SentError };

export interface SentError {
  kind: ErrorKind;
  message: string;
}

export function sendableError(err: unknown): SentError {
  return { kind: kindOf(err), message: messageOf(err) };
}

export function receivedError(sent: SentError): BerthError {
  return new BerthError(sent.kind, sent.message);
}

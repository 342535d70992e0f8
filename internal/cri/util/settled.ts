// Waiting for a promise with an upper bound, without leaving a timer behind, nor a reaction: the
// promise may be a task's exit, pending for the container's life, and a then() on it kept each
// bounded wait (a failing exec probe's, ~1 KiB) until the container exited.
import { afterMs } from './after_ms';
import { whenSettled } from './settle_listeners';

/** True when `p` settled (either way) within `ms`. */
export function settledWithin(p: Promise<unknown>, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const done = () => {
      cancel();
      resolve(true);
    };
    const stopWatching = whenSettled(p, done, done);
    const cancel = afterMs(ms, () => {
      stopWatching();
      resolve(false);
    });
  });
}

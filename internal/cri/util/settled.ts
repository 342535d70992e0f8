// Waiting for a promise with an upper bound, without leaving a timer behind.
import { afterMs } from './after_ms';

/** True when `p` settled (either way) within `ms`. */
export function settledWithin(p: Promise<unknown>, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const cancel = afterMs(ms, () => resolve(false));
    const done = () => {
      cancel();
      resolve(true);
    };
    p.then(done, done);
  });
}

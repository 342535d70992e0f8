// Waiting for a promise with an upper bound, without leaving a timer behind.

// setTimeout fires at once for delays above 2^31-1 ms; longer waits are clamped to it.
const MAX_TIMER_MS = 2 ** 31 - 1;

/** True when `p` settled (either way) within `ms`. */
export function settledWithin(p: Promise<unknown>, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), Math.min(ms, MAX_TIMER_MS));
    const done = () => {
      clearTimeout(timer);
      resolve(true);
    };
    p.then(done, done);
  });
}

// A timer for delays a request names. setTimeout fires at once for delays above 2^31-1 ms (~24.8
// days), so an ExecSync timeout of a month killed the command at once; a longer wait is chained.

const MAX_TIMER_MS = 2 ** 31 - 1;

/** Calls `fn` once `ms` have passed, however long that is; the returned function cancels it. */
export function afterMs(ms: number, fn: () => void): () => void {
  let timer: NodeJS.Timeout;
  const arm = (left: number) => {
    timer = setTimeout(() => (left > MAX_TIMER_MS ? arm(left - MAX_TIMER_MS) : fn()), Math.min(left, MAX_TIMER_MS));
  };
  arm(ms);
  return () => clearTimeout(timer);
}

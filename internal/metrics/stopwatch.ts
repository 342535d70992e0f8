// Durations for histograms: a monotonic clock, so a wall-clock step never makes one negative.

/** Starts timing; the returned function gives the seconds elapsed since. */
export function stopwatch(): () => number {
  const started = process.hrtime.bigint();
  return () => Number(process.hrtime.bigint() - started) / 1e9;
}

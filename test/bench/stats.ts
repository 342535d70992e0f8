// Small statistics over latency samples (milliseconds).

/** The q-th quantile (0..1) by nearest rank over a sorted copy; NaN for no samples. */
export function quantile(samples: readonly number[], q: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil(q * sorted.length)));
  return sorted[rank - 1]!;
}

export const p50 = (samples: readonly number[]): number => quantile(samples, 0.5);
export const p99 = (samples: readonly number[]): number => quantile(samples, 0.99);
/** The arithmetic mean; NaN for no samples. With peers in A B B A order, a linear drift of the host cancels in it. */
export const mean = (samples: readonly number[]): number => samples.reduce((sum, s) => sum + s, 0) / samples.length;
/** A figure measured once (a wall time, a CPU total): its one sample. */
export const only = (samples: readonly number[]): number => samples[0]!;

/** Milliseconds since `start` (a process.hrtime.bigint() reading). */
export function msSince(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/** Runs `fn` and returns its result with the wall time it took in ms. */
export async function timed<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const start = process.hrtime.bigint();
  const value = await fn();
  return { value, ms: msSince(start) };
}

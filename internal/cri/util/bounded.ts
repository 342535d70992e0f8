// Work over many items with a bound on how many run at once (recovery's pods, its sweep's DELs).

/** Runs `fn` over `items` with at most `limit` running at once; `fn` must not reject. */
export async function forEachBounded<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await fn(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}


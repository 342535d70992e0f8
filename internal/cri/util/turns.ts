// Work over many items that must not hold the event loop from start to end: the stats lists of a
// full node read hundreds of cgroups synchronously, and every other call would wait behind them.
import { setImmediate as nextTurn } from 'node:timers/promises';

/** `fn` over `items`, `perTurn` at a time (concurrently), with an event-loop turn between batches; results in order. */
export async function mapInTurns<T, R>(items: readonly T[], perTurn: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let start = 0; start < items.length; start += perTurn) {
    if (start > 0) await nextTurn();
    out.push(...(await Promise.all(items.slice(start, start + perTurn).map(fn))));
  }
  return out;
}

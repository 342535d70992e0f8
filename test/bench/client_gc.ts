// The bench client's own young-generation collection, run before each timed call of the query
// rows: the client decodes answers of 220 containers and 110 pods, and a scavenge of its own that
// lands inside a call was timed as that call's latency, for either runtime. Measured on 110 pods
// with berthd (2026-12-02, 2 rounds of scale_queries' schedule): p99 of ListContainers by pod UID
// 40.5 -> 5.2 ms, by sandbox ID 17.5 -> 8.0 ms, slow calls (3x the p50) coinciding with a client
// GC 23 of 39 -> 0 of 17 for ImageFsInfo. The daemon's own collections still count: they are its latency.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

type Gc = (options: { type: 'minor' | 'major' }) => void;

let gc: Gc | undefined;

/** Empties this process's young generation (a scavenge, ~1 ms), so the next call starts with room. */
export function collectClientGarbage(): void {
  if (gc === undefined) {
    // The documented way to reach V8's gc() without starting Node with --expose-gc.
    setFlagsFromString('--expose-gc');
    gc = runInNewContext('gc') as Gc;
  }
  gc({ type: 'minor' });
}

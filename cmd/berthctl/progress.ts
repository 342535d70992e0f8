// Pull and import progress on a terminal: a bar on stderr (cli-progress) redrawn from berthd's
// in-flight content writes (Admin/ListIngests, polled), so it shows real bytes arriving; stdout
// keeps only the result lines. Not on a terminal (a script, a pipe), nothing is drawn.
import type { DaemonClient } from './client';
import { humanSize } from './humanize';

const POLL_MS = 200;

/** Bytes written so far, over every ingest seen (a finished one keeps its last offset). */
class IngestTally {
  private readonly seen = new Map<string, number>();

  update(ingests: Array<{ ref: string; offset: string }>): number {
    for (const [i, ingest] of ingests.entries()) {
      const key = ingest.ref === '' ? `computed-${i}` : ingest.ref;
      this.seen.set(key, Math.max(this.seen.get(key) ?? 0, Number(ingest.offset)));
    }
    let sum = 0;
    for (const bytes of this.seen.values()) sum += bytes;
    return sum;
  }
}

/**
 * Runs `work` while drawing "<label> |bar| <bytes>" on stderr when it is a TTY. `total` (bytes)
 * draws a filling bar; without it only the byte count moves.
 */
export async function withProgress<T>(client: DaemonClient, label: string, total: number | undefined, work: Promise<T>): Promise<T> {
  if (!process.stderr.isTTY) return work;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { SingleBar } = require('cli-progress') as typeof import('cli-progress');
  const withTotal = total !== undefined && total > 0;
  const bar = new SingleBar({
    stream: process.stderr,
    format: withTotal ? `${label} |{bar}| {received} / {size}  {duration}s` : `${label}  {received}  {duration}s`,
    hideCursor: true,
    clearOnComplete: false,
    barsize: 30,
  });
  const totalBytes = withTotal ? total : 1;
  bar.start(totalBytes, 0, { received: humanSize(0), size: humanSize(totalBytes) });
  const tally = new IngestTally();
  let done = false;
  const poll = (async () => {
    while (!done) {
      try {
        const { ingests } = await client.admin.ListIngests({}, { deadline: Date.now() + 5_000 });
        const received = tally.update(ingests);
        bar.update(Math.min(received, totalBytes), { received: humanSize(received) });
      } catch {
        // progress is decoration: a failed poll is skipped, the operation decides the outcome
      }
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
  })();
  try {
    const result = await work;
    // The polling ends first: an answer arriving after the work ended would draw the bar back.
    done = true;
    await poll;
    // Done: a known total was all written (also when the polls never caught a write in flight).
    bar.update(totalBytes, withTotal ? { received: humanSize(totalBytes) } : {});
    return result;
  } finally {
    done = true;
    await poll;
    bar.stop();
  }
}

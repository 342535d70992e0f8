// Work that must happen once storage takes it again (a full disk): tried until it succeeds, with
// containerd's event back-off (1 s, doubling, at most 5 min).
import { messageOf } from '../../errdefs/errors';
import type { Logger } from '../../log/logger';

const FIRST_MS = 1_000;
const MAX_MS = 300_000;

/**
 * Runs `work` until it succeeds, logging each failure. The waits are unref'd: a pending retry does
 * not keep berthd from exiting (the next start's recovery finishes the job). Never rejects.
 */
export async function retryWithBackoff(log: Logger, what: string, work: () => unknown): Promise<void> {
  for (let delayMs = FIRST_MS; ; delayMs = Math.min(delayMs * 2, MAX_MS)) {
    try {
      await work();
      return;
    } catch (err) {
      log.error(`${what} failed; retrying`, { error: messageOf(err), retryInMs: delayMs });
    }
    await new Promise((resolve) => setTimeout(resolve, delayMs).unref());
  }
}

// Rate-limited reporting of a container log that cannot be written (ENOSPC, EDQUOT, EFBIG, EIO, a
// short write): a full disk fails every record, and one error line per record would flood berthd's
// own log (often on the same full disk). The first failure is logged at once, later ones at most
// once per interval with the count of records dropped meanwhile; the first write that works again
// says how many were lost.
import { messageOf } from '../../errdefs/errors';
import type { Logger } from '../../log/logger';

export const REPORT_INTERVAL_MS = 10_000;

export class LogWriteErrors {
  private dropped = 0;
  private droppedSinceReport = 0;
  private lastReport: number | undefined;

  constructor(
    private readonly logger: Logger,
    private readonly path: string,
    private readonly now: () => number = Date.now,
  ) {}

  /** `records` (a record, or none for a failed open) were dropped because of `err`. */
  failed(err: unknown, records = 1): void {
    this.dropped += records;
    this.droppedSinceReport += records;
    const t = this.now();
    if (this.lastReport !== undefined && t - this.lastReport < REPORT_INTERVAL_MS) return;
    this.logger.error('cannot write container log; dropping its output until writes succeed again', {
      path: this.path,
      error: messageOf(err),
      code: (err as NodeJS.ErrnoException | undefined)?.code,
      droppedRecords: this.droppedSinceReport,
    });
    this.lastReport = t;
    this.droppedSinceReport = 0;
  }

  /** A record was written: ends an episode of failures, if one was going on. */
  succeeded(): void {
    if (this.lastReport === undefined) return;
    this.logger.warn('container log writable again', { path: this.path, droppedRecords: this.dropped });
    this.dropped = 0;
    this.droppedSinceReport = 0;
    this.lastReport = undefined;
  }
}

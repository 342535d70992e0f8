// containerd's `retErr` defers as a value: each step pushes its undo; on failure the undos run
// last-first, each one's error logged and the rest still run, and the original error is rethrown.
import { messageOf } from '../../errdefs/errors';
import type { Logger } from '../../log/logger';

export type Undo = () => unknown | Promise<unknown>;

export class CleanupStack {
  private readonly undos: { what: string; undo: Undo }[] = [];
  /** An undo of this stack threw: what it should have removed is still there. */
  failed = false;

  constructor(private readonly logger: Logger) {}

  push(what: string, undo: Undo): void {
    this.undos.push({ what, undo });
  }

  /** Runs every undo, newest first. Never throws. */
  async unwind(): Promise<void> {
    while (this.undos.length > 0) {
      const { what, undo } = this.undos.pop()!;
      try {
        await undo();
      } catch (err) {
        this.failed = true;
        this.logger.error('rollback step failed', { step: what, error: messageOf(err) });
      }
    }
  }

  /** The step succeeded as a whole: keep what was done. */
  dismiss(): void {
    this.undos.length = 0;
  }

  /** Runs fn; on failure unwinds and rethrows; on success dismisses. */
  async run<T>(fn: () => Promise<T>): Promise<T> {
    try {
      const result = await fn();
      this.dismiss();
      return result;
    } catch (err) {
      await this.unwind();
      throw err;
    }
  }
}

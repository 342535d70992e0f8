// Deferred deletion, as containerd leaves directory removal to its GC: a directory is renamed into
// the trash at once (one rename on the same filesystem, so whatever owned the name is free and no
// half-deleted tree is ever visible at it), then deleted in the background. A crash in between
// leaves it in the trash, which the next start empties. The deletion starts a moment later
// (DELETE_AFTER_MS), so its file system work (on libuv's pool, in steps: fs/remove_tree) comes after
// the answer to the call that discarded the tree instead of between its parts.
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, renameSync } from 'node:fs';
import { basename, join } from 'node:path';
import { messageOf } from '../errdefs/errors';
import { removeTree } from '../fs/remove_tree';
import type { Logger } from '../log/logger';

/** How long a discarded tree waits in the trash before its deletion starts. */
export const DELETE_AFTER_MS = 50;

interface PendingDeletion {
  done: Promise<void>;
  /** Starts the deletion now instead of after the delay. */
  startNow(): void;
}

export class Trash {
  private readonly pending = new Set<PendingDeletion>();

  constructor(
    /** Must be on the same filesystem as what is discarded into it. */
    readonly dir: string,
    private readonly logger: Logger,
  ) {}

  /** Moves `path` into the trash now and deletes it in the background; a missing path is fine. */
  discard(path: string): void {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    const target = join(this.dir, `${basename(path)}-${randomBytes(4).toString('hex')}`);
    try {
      renameSync(path, target);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw err;
    }
    this.deleteLater(target, DELETE_AFTER_MS);
  }

  /** Deletes `target` (in the trash) in the background after `delayMs`; drain() waits for it. */
  private deleteLater(target: string, delayMs: number): void {
    let startNow!: () => void;
    const started = new Promise<void>((resolve) => (startNow = resolve));
    // Unref'd: a process with nothing else to do ends; the tree stays in the trash for the next start.
    setTimeout(startNow, delayMs).unref();
    const entry: PendingDeletion = {
      startNow,
      done: started
        .then(() => removeTree(target))
        .catch((err: unknown) => this.logger.warn('deleting from the trash failed', { path: target, error: messageOf(err) }))
        .finally(() => this.pending.delete(entry)),
    };
    this.pending.add(entry);
  }

  /** Starts every deletion discarded so far at once and resolves when they have finished. */
  async drain(): Promise<void> {
    const entries = [...this.pending];
    for (const entry of entries) entry.startNow();
    await Promise.all(entries.map((entry) => entry.done));
  }

  /**
   * At start: deletes in the background whatever a killed process left in the trash, so that a
   * container's million files removed just before a kill do not hold up serving. What cannot be
   * deleted (a file a privileged container made immutable, a failing disk) is logged and left for
   * the next start: debris in the trash is no reason for berthd not to serve.
   */
  empty(): void {
    let names: string[];
    try {
      names = readdirSync(this.dir);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') this.logger.warn('emptying the trash failed', { path: this.dir, error: messageOf(err) });
      return;
    }
    for (const name of names) this.deleteLater(join(this.dir, name), 0);
  }
}

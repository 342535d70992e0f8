// Deferred deletion, as containerd leaves directory removal to its GC: a directory is renamed into
// the trash at once (one rename on the same filesystem, so whatever owned the name is free and no
// half-deleted tree is ever visible at it), then deleted in the background. A crash in between
// leaves it in the trash, which the next start empties.
import { randomBytes } from 'node:crypto';
import { mkdirSync, renameSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { messageOf } from '../errdefs/errors';
import type { Logger } from '../log/logger';

export class Trash {
  private readonly pending = new Set<Promise<void>>();

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
    const done: Promise<void> = rm(target, { recursive: true, force: true })
      .catch((err: unknown) => this.logger.warn('deleting from the trash failed', { path: target, error: messageOf(err) }))
      .finally(() => this.pending.delete(done));
    this.pending.add(done);
  }

  /** Resolves when every background deletion started so far has finished. */
  async drain(): Promise<void> {
    await Promise.all([...this.pending]);
  }

  /** At start: deletes whatever a killed process left in the trash. */
  async empty(): Promise<void> {
    await rm(this.dir, { recursive: true, force: true });
  }
}

// Reading a berthd's metadata DB beside the running daemon, as an operator would read a copy of
// containerd's meta.db: berthd holds the file exclusively while it runs (locking_mode EXCLUSIVE),
// so the DB and its WAL are copied and the copy is opened (SQLite replays the copied WAL into it).
// Tests read it while the daemon is idle between calls, so the copy is not torn.
import Database from 'better-sqlite3';
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Runs `read` on a copy of <root>/metadata.db as it is now, then removes the copy. */
export function readDaemonDb<T>(root: string, read: (db: Database.Database) => T): T {
  const dir = mkdtempSync(join(tmpdir(), 'berth-db-copy-'));
  try {
    for (const suffix of ['', '-wal']) {
      const file = join(root, `metadata.db${suffix}`);
      if (suffix === '' || existsSync(file)) copyFileSync(file, join(dir, `metadata.db${suffix}`));
    }
    const db = new Database(join(dir, 'metadata.db'), { fileMustExist: true });
    try {
      return read(db);
    } finally {
      db.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Runs `write` on <root>/metadata.db itself, as an operator's sqlite3 would: only while no berthd
 * runs on the root. Closing checkpoints the WAL into the file, which the next start reads as is.
 */
export function writeStoppedDaemonDb(root: string, write: (db: Database.Database) => void): void {
  const db = new Database(join(root, 'metadata.db'), { fileMustExist: true });
  try {
    write(db);
  } finally {
    db.close();
  }
}

// The metadata database: one SQLite file under the root dir, standing where containerd has bolt.
// WAL so readers never block the writer; every logical write is one transaction, so a crash between
// statements never leaves half a record.
import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { MIGRATIONS, type Migration } from './migrations';

export type Sqlite = Database.Database;

export class MetadataDB {
  readonly sqlite: Sqlite;

  private constructor(sqlite: Sqlite) {
    this.sqlite = sqlite;
  }

  static open(path: string, migrations: readonly Migration[] = MIGRATIONS): MetadataDB {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    const sqlite = new Database(path);
    try {
      sqlite.pragma('journal_mode = WAL');
      sqlite.pragma('synchronous = NORMAL');
      sqlite.pragma('foreign_keys = ON');
      sqlite.pragma('busy_timeout = 5000');
      migrate(sqlite, migrations);
    } catch (err) {
      sqlite.close();
      throw err;
    }
    return new MetadataDB(sqlite);
  }

  /** Runs fn in one transaction (nested calls become savepoints); rolls back when fn throws. */
  tx<T>(fn: () => T): T {
    return this.sqlite.transaction(fn)();
  }

  get schemaVersion(): number {
    return this.sqlite.pragma('user_version', { simple: true }) as number;
  }

  close(): void {
    if (this.sqlite.open) this.sqlite.close();
  }
}

function migrate(sqlite: Sqlite, migrations: readonly Migration[]): void {
  const current = sqlite.pragma('user_version', { simple: true }) as number;
  const latest = migrations.reduce((max, m) => Math.max(max, m.version), 0);
  if (current > latest) {
    throw new Error(`metadata schema version ${current} is newer than this berth knows (${latest})`);
  }
  for (const m of [...migrations].sort((a, b) => a.version - b.version)) {
    if (m.version <= current) continue;
    sqlite.transaction(() => {
      sqlite.exec(m.sql);
      sqlite.pragma(`user_version = ${m.version}`);
    })();
  }
}

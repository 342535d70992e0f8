// The metadata database: one SQLite file under the root dir, standing where containerd has bolt.
// WAL so readers never block the writer; every logical write is one transaction, so a crash between
// statements never leaves half a record.
import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { DatabaseStateError, writeFailure } from './errors';
import { MIGRATIONS, type Migration } from './migrations';

export type Sqlite = Database.Database;

/**
 * better-sqlite3's native addon, named instead of found: without it the package asks `bindings`,
 * which probes a dozen paths from the caller's stack, and which cannot work from berthd's bundle
 * (better-sqlite3's JavaScript is bundled, its addon stays in node_modules).
 */
const sqliteAddon = (): string => join(dirname(require.resolve('better-sqlite3/package.json')), 'build', 'Release', 'better_sqlite3.node');

export class MetadataDB {
  readonly sqlite: Sqlite;
  private readonly statements = new Map<string, Database.Statement>();

  private constructor(sqlite: Sqlite) {
    this.sqlite = sqlite;
  }

  static open(path: string, migrations: readonly Migration[] = MIGRATIONS): MetadataDB {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    const sqlite = new Database(path, { nativeBinding: sqliteAddon() });
    try {
      sqlite.pragma('journal_mode = WAL');
      // FULL: each commit is on disk before the step after it (removing a snapshot dir, deleting
      // blobs) starts, as bolt fsyncs each containerd commit. README "Durability" has the figures.
      sqlite.pragma('synchronous = FULL');
      sqlite.pragma('foreign_keys = ON');
      sqlite.pragma('busy_timeout = 5000');
      migrate(sqlite, migrations);
    } catch (err) {
      sqlite.close();
      throw err;
    }
    return new MetadataDB(sqlite);
  }

  /**
   * Runs fn in one transaction (nested calls become savepoints); rolls back when fn throws or the
   * commit fails (SQLITE_FULL: ResourceExhausted, nothing written).
   */
  tx<T>(fn: () => T): T {
    const outermost = !this.sqlite.inTransaction;
    try {
      return this.sqlite.transaction(fn)();
    } catch (err) {
      if (outermost && this.sqlite.inTransaction) throw stuck(err);
      throw writeFailure(err);
    }
  }

  /**
   * The prepared statement for `sql`, made once per connection: parsing the same SQL again at every
   * call was a visible share of a pod start's CPU (issue 16). Callers use get/all/run only and never
   * change a statement's mode (pluck, raw, expand), which would change it for every caller.
   */
  prepare(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (statement === undefined) {
      statement = this.sqlite.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
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

/**
 * The rollback itself failed and the connection is still inside the transaction: what is in memory
 * and what a restart would load can no longer be told apart. The error goes to the caller and,
 * past any RPC frame that would answer it and carry on, to the process: berthd's crash policy exits
 * on it (a restart reloads from the last commit).
 */
function stuck(err: unknown): DatabaseStateError {
  const fatal = new DatabaseStateError('metadata transaction failed and could not be rolled back', { cause: err });
  process.nextTick(() => {
    throw fatal;
  });
  return fatal;
}

// The metadata database: one SQLite file under the root dir, standing where containerd has bolt.
// WAL so readers never block the writer; every logical write is one transaction, so a crash between
// statements never leaves half a record. A commit is written at once and made durable by durable()
// (README "Durability"): an fsync of the WAL on libuv's thread pool, shared by every commit made
// before it started, instead of SQLite's own fsync inside each commit, which held berthd's one
// thread ~2.7 ms per commit here while every other call waited (issue 16). The file is berthd's
// alone while it runs (locking_mode EXCLUSIVE, as containerd holds an exclusive flock on bolt's
// meta.db): SQLite then takes its locks once instead of two fcntl calls per statement, and keeps
// the WAL index in memory instead of a -shm file.
import Database from 'better-sqlite3';
import { closeSync, fsync, fsyncSync, mkdirSync, openSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { DatabaseCorruptError, DatabaseStateError, flushFailure, openFailure, writeFailure } from './errors';
import { MIGRATIONS, type Migration } from './migrations';

export type Sqlite = Database.Database;

/**
 * better-sqlite3's native addon, named instead of found: without it the package asks `bindings`,
 * which probes a dozen paths from the caller's stack, and which cannot work from berthd's bundle
 * (better-sqlite3's JavaScript is bundled, its addon stays in node_modules).
 */
const sqliteAddon = (): string => join(dirname(require.resolve('better-sqlite3/package.json')), 'build', 'Release', 'better_sqlite3.node');

/** Flushes a file to disk (fs.fsync); replaced in tests to count or fail the flushes. */
export type FileSync = (fd: number) => Promise<void>;

const fsyncOnPool: FileSync = (fd) => new Promise((resolve, reject) => fsync(fd, (err) => (err ? reject(err) : resolve())));

/** The size the WAL is cut back to after a checkpoint. */
export const WAL_SIZE_LIMIT = 4 << 20;

export class MetadataDB {
  readonly sqlite: Sqlite;
  private readonly statements = new Map<string, Database.Statement>();
  /** better-sqlite3's transaction wrapper, made once: making one per call was a visible cost (issue 16). */
  private readonly runInTransaction: (fn: () => unknown) => unknown;
  /** Commits made so far, and how many of them the last finished fsync covers. */
  private committed = 0;
  private synced = 0;
  /** The fsync under way, if any. */
  private syncing?: Promise<void>;
  private walFd?: number;

  private constructor(
    sqlite: Sqlite,
    private readonly walPath: string | undefined,
    private readonly fileSync: FileSync,
  ) {
    this.sqlite = sqlite;
    this.runInTransaction = sqlite.transaction((fn: () => unknown) => fn());
  }

  static open(path: string, migrations: readonly Migration[] = MIGRATIONS, fileSync: FileSync = fsyncOnPool): MetadataDB {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    let sqlite: Sqlite;
    try {
      // timeout 0 until open: see busy_timeout below (better-sqlite3's default is 5 s).
      sqlite = new Database(path, { nativeBinding: sqliteAddon(), timeout: 0 });
    } catch (err) {
      throw openFailure(err, path);
    }
    let applied: number;
    try {
      // Before the first access in WAL mode, so no shared-memory WAL index is ever made.
      sqlite.pragma('locking_mode = EXCLUSIVE');
      sqlite.pragma('journal_mode = WAL');
      // NORMAL: a commit is written to the WAL but not fsynced by SQLite (a crash of berthd loses
      // nothing; a power loss could lose the last commits). durable() gives back what FULL gave:
      // every answered RPC that wrote (grpc_server.ts), and every commit before an irreversible step
      // (a snapshot dir into the trash, blobs deleted), is on disk first, as bolt fsyncs each
      // containerd commit. Checkpoints still fsync the WAL before copying it into the database.
      sqlite.pragma('synchronous = NORMAL');
      sqlite.pragma('foreign_keys = ON');
      // A WAL grown by a burst is cut back to this at the checkpoints after it; SQLite otherwise
      // only ever reuses the file (a burst of ~2,000 records left it at 50 MB for good).
      sqlite.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT}`);
      if (path !== ':memory:') assertIntact(sqlite, path);
      applied = migrate(sqlite, migrations);
      // Only now: at open nothing of the same root can hold the file (the root lock is taken
      // first, and the locks go with their process), so a holder is another process that would
      // not let go in 5 s either (a berthd older than the root lock): refused at once.
      sqlite.pragma('busy_timeout = 5000');
    } catch (err) {
      sqlite.close();
      throw openFailure(err, path);
    }
    const db = new MetadataDB(sqlite, path === ':memory:' ? undefined : `${path}-wal`, fileSync);
    db.committed = applied; // a new schema goes to disk with the first durable()
    return db;
  }

  /**
   * Runs fn in one transaction (nested calls become savepoints); rolls back when fn throws or the
   * commit fails (SQLITE_FULL: ResourceExhausted, nothing written).
   */
  tx<T>(fn: () => T): T {
    const outermost = !this.sqlite.inTransaction;
    try {
      const result = this.runInTransaction(fn) as T;
      if (outermost) this.committed += 1;
      return result;
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

  /**
   * Resolves once every commit made so far is on disk: at once when an fsync since covers them,
   * else after the next fsync of the WAL (one in flight began before some of them, so they wait for
   * the one after it, which then covers every commit made meanwhile). Rejects when the fsync fails:
   * the caller must not take a step that the commit's being on disk was to allow.
   */
  durable(): Promise<void> {
    const wanted = this.committed;
    if (this.walPath === undefined || this.synced >= wanted) return Promise.resolve();
    if (this.syncing !== undefined) {
      const again = () => (this.synced >= wanted ? undefined : this.durable());
      return this.syncing.then(again, again);
    }
    const covers = this.committed;
    const syncing = Promise.resolve()
      .then(() => this.fileSync(this.openWal()))
      .then(
        () => {
          this.synced = Math.max(this.synced, covers);
        },
        (err: unknown) => {
          throw flushFailure(err);
        },
      )
      .finally(() => {
        if (this.syncing === syncing) this.syncing = undefined;
      });
    this.syncing = syncing;
    return syncing;
  }

  /** The WAL, opened for fsync once (SQLite keeps the file until the last connection closes). */
  private openWal(): number {
    this.walFd ??= openSync(this.walPath!, 'r');
    return this.walFd;
  }

  /**
   * For a process about to exit: every commit made durable (an fsync of the WAL, here and now, when
   * some are not yet) and the connection left for the kernel to drop. close() would also checkpoint
   * the WAL into the database file (two fsyncs and the WAL's unlink: ~0.3 ms of berthd's stop, issue
   * 16); the next open reads the WAL back as after a crash, which SQLite is made for, and the
   * checkpoint comes with a later commit. containerd's bolt, too, only drops its file at exit.
   */
  leave(): void {
    if (this.walPath === undefined || this.synced >= this.committed) return;
    const covers = this.committed;
    try {
      fsyncSync(this.openWal());
    } catch (err) {
      throw flushFailure(err);
    }
    this.synced = covers;
  }

  close(): void {
    if (this.sqlite.open) this.sqlite.close();
    const fd = this.walFd;
    this.walFd = undefined;
    if (fd === undefined) return;
    // An fsync on the pool still holds the fd: closed after it, so the number is never reused under it.
    if (this.syncing === undefined) closeSync(fd);
    else this.syncing.finally(() => closeSync(fd)).catch(() => undefined);
  }
}

/**
 * Refuses a file whose pages are damaged. Without the check berthd started on one, since recovery
 * reads only some tables, and then failed every image call and every RunPodSandbox with "database
 * disk image is malformed", naming no file. quick_check reads every page once but skips comparing
 * indexes with their tables: ~5 ms per MiB here, some of it won back by the loads that follow (the
 * pages are then in SQLite's cache); a database of 330 records of 110 pods' size is ~3 MiB.
 */
function assertIntact(sqlite: Sqlite, path: string): void {
  const verdict = sqlite.pragma('quick_check(1)', { simple: true });
  if (verdict === 'ok') return;
  // "*** in database main ***\nTree 2 page 2: btreeInitPage() returns error code 11": one line.
  throw new DatabaseCorruptError(String(verdict).replace(/^\*\*\* in database main \*\*\*\s*/, '').replace(/\s+/g, ' '), path);
}

/** Applies the migrations newer than the database's schema; returns how many it applied. */
function migrate(sqlite: Sqlite, migrations: readonly Migration[]): number {
  const current = sqlite.pragma('user_version', { simple: true }) as number;
  const latest = migrations.reduce((max, m) => Math.max(max, m.version), 0);
  if (current > latest) {
    throw new Error(`metadata schema version ${current} is newer than this berth knows (${latest})`);
  }
  let applied = 0;
  for (const m of [...migrations].sort((a, b) => a.version - b.version)) {
    if (m.version <= current) continue;
    sqlite.transaction(() => {
      sqlite.exec(m.sql);
      sqlite.pragma(`user_version = ${m.version}`);
    })();
    applied += 1;
  }
  return applied;
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

// What a failed metadata write means to the caller. SQLITE_FULL (the root's disk is full) rolls the
// transaction back and is answered as ResourceExhausted. A transaction that could not even be
// rolled back leaves the connection inside it: every later write would join the broken one, so
// that is the one metadata failure berthd does not survive (see cmd/berthd/crash_policy.ts).
import { BerthError, failedPrecondition, resourceExhausted } from '../errdefs/errors';

/** The connection is stuck in a transaction that neither committed nor rolled back. */
export class DatabaseStateError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'DatabaseStateError';
  }
}

/**
 * The database file is damaged: berthd refuses to start on it (containerd refuses a bolt file whose
 * meta pages are bad) instead of serving and then failing every call that reads the damaged part.
 */
export class DatabaseCorruptError extends Error {
  constructor(
    readonly problem: string,
    readonly path?: string,
    options?: { cause?: unknown },
  ) {
    super(`metadata database${path === undefined ? '' : ` ${path}`} is corrupt: ${problem}; restore it from a backup or move it away`, options);
    this.name = 'DatabaseCorruptError';
  }

  /** The same error naming the file (the stores that find a bad row do not know it). */
  inFile(path: string): DatabaseCorruptError {
    return this.path === undefined ? new DatabaseCorruptError(this.problem, path, { cause: this.cause }) : this;
  }
}

/**
 * Why the database at `path` could not be opened, naming the file: a DatabaseCorruptError when it
 * is damaged (berth's own verdict, or SQLite's on a page it could not read: SQLITE_CORRUPT*,
 * SQLITE_NOTADB); held by another process (SQLITE_BUSY once busy_timeout passed) when something
 * else has it open, which a berthd of the same root cannot be (<root>/berthd.lock) but one older
 * than 2026-12-04, which locked its root by a PID file only, can; any other SQLite error
 * ("disk I/O error" on a file made immutable) with the file's name in front.
 */
export function openFailure(err: unknown, path: string): unknown {
  if (err instanceof DatabaseCorruptError) return err.inFile(path);
  const code = sqliteCode(err);
  if (code === undefined) return err;
  const message = (err as Error).message;
  if (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB') return new DatabaseCorruptError(message, path, { cause: err });
  if (code.startsWith('SQLITE_BUSY')) {
    return failedPrecondition(`metadata database ${path} is held by another process (a berthd older than 2026-12-04 locks its root only by a PID file): ${message}`, err);
  }
  return new Error(`metadata database ${path}: ${message} (${code})`, { cause: err });
}

/**
 * better-sqlite3's SqliteError code (SQLITE_FULL, SQLITE_IOERR_WRITE, ...), if err is one. Told by
 * its name, not instanceof Error: the addon keeps the error class of the first context that opened
 * a database, whose Error is another realm's under jest.
 */
export function sqliteCode(err: unknown): string | undefined {
  if (typeof err !== 'object' || err === null || (err as { name?: unknown }).name !== 'SqliteError') return undefined;
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' ? code : undefined;
}

/** A rolled-back write failure as the RPC should report it. */
export function writeFailure(err: unknown): unknown {
  if (err instanceof BerthError) return err;
  if (sqliteCode(err) === 'SQLITE_FULL') {
    return resourceExhausted(`metadata database: no space left on the root's disk: ${(err as Error).message}`, err);
  }
  return err;
}

/** A failed flush of the WAL (durable()) as the RPC should report it: a full disk is ResourceExhausted. */
export function flushFailure(err: unknown): unknown {
  const code = typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined;
  if (code === 'ENOSPC' || code === 'EDQUOT') {
    return resourceExhausted(`metadata database: no space left on the root's disk to flush the log: ${(err as Error).message}`, err);
  }
  return err;
}

// berthd's last resort for an error nothing caught: an exception thrown from a callback or a
// promise rejected with nobody listening. Node's default is to print it and exit; a CRI runtime
// that exits takes every node operation down with it, for what is usually one failed step of one
// request. So: log it at error level with its stack ("uncaught exception" / "unhandled rejection")
// and keep serving. Every store writes its database row before its in-memory record, in one
// transaction, so an error escaping between two steps leaves state a restart would also load.
//
// Exiting is the right answer only when that no longer holds: the metadata connection is stuck
// inside a transaction that could not be rolled back (DatabaseStateError), or SQLite says the
// database file is damaged. Then berthd logs "exiting" and exits 1, and a supervisor's restart
// reloads from the last commit (recovery reconciles the rest). Never a silent exit.
import { messageOf } from '../../internal/errdefs/errors';
import type { Logger } from '../../internal/log/logger';
import { DatabaseStateError, sqliteCode } from '../../internal/metadata/errors';

const DAMAGED_DATABASE = /^SQLITE_(CORRUPT|NOTADB)/;

/** True when berthd's state can no longer be trusted after `err` (see above). */
export function isFatal(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e !== undefined && e !== null && depth < 8; depth++) {
    if (e instanceof DatabaseStateError) return true;
    if (DAMAGED_DATABASE.test(sqliteCode(e) ?? '')) return true;
    e = e instanceof Error ? e.cause : undefined;
  }
  return false;
}

function describe(err: unknown): { error: string; stack?: string } {
  return err instanceof Error ? { error: messageOf(err), stack: err.stack } : { error: String(err) };
}

export function installCrashPolicy(logger: Logger, exit: (code: number) => never = process.exit): void {
  let handling = false;
  const onError = (kind: 'uncaught exception' | 'unhandled rejection') => (err: unknown) => {
    // A failure while logging (stderr gone) must not recurse through this handler.
    if (handling) return;
    handling = true;
    try {
      const fatal = isFatal(err);
      try {
        logger.error(kind, { ...describe(err), fatal });
        if (fatal) logger.error('exiting: berthd state can no longer be trusted; a restart reloads it from the last commit');
      } catch {
        // nowhere left to report it
      }
      if (fatal) exit(1);
    } finally {
      handling = false;
    }
  };
  process.on('uncaughtException', onError('uncaught exception'));
  process.on('unhandledRejection', onError('unhandled rejection'));
}

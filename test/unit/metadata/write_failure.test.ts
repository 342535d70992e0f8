// How a failed metadata write is reported. better-sqlite3's native side keeps the SqliteError class of
// the first JavaScript context that opened a database, so an error can come from another realm (jest
// gives each test file its own): it is still recognised by its name and code.
import { runInNewContext } from 'node:vm';
import { BerthError } from '../../../internal/errdefs/errors';
import { flushFailure, sqliteCode, writeFailure } from '../../../internal/metadata/errors';

function sqliteError(code: string, message: string, realm: 'this' | 'another'): unknown {
  const make = (ErrorClass: ErrorConstructor) => Object.assign(new ErrorClass(message), { name: 'SqliteError', code });
  return realm === 'this' ? make(Error) : runInNewContext(`Object.assign(new Error(${JSON.stringify(message)}), { name: 'SqliteError', code: ${JSON.stringify(code)} })`);
}

describe('metadata write failures', () => {
  it.each(['this', 'another'] as const)('SQLITE_FULL from %s realm is ResourceExhausted', (realm) => {
    const err = sqliteError('SQLITE_FULL', 'database or disk is full', realm);
    expect(err instanceof Error).toBe(realm === 'this'); // the other realm's Error is not ours
    expect(sqliteCode(err)).toBe('SQLITE_FULL');
    const reported = writeFailure(err);
    expect(reported).toBeInstanceOf(BerthError);
    expect(reported).toMatchObject({ kind: 'ResourceExhausted', message: expect.stringContaining('database or disk is full') });
  });

  it('leaves other errors as they are', () => {
    const io = sqliteError('SQLITE_IOERR_WRITE', 'disk I/O error', 'another');
    expect(sqliteCode(io)).toBe('SQLITE_IOERR_WRITE');
    expect(writeFailure(io)).toBe(io);
    const plain = new Error('SQLITE_FULL'); // not a SqliteError, whatever it says
    expect(sqliteCode(plain)).toBeUndefined();
    expect(writeFailure(plain)).toBe(plain);
    expect(sqliteCode(null)).toBeUndefined();
  });

  it('a full disk failing the flush of the log is ResourceExhausted; other flush errors stay as they are', () => {
    const full = Object.assign(new Error('ENOSPC: no space left on device, fsync'), { code: 'ENOSPC' });
    expect(flushFailure(full)).toMatchObject({ kind: 'ResourceExhausted', message: expect.stringContaining('ENOSPC') });
    const io = Object.assign(new Error('EIO: i/o error, fsync'), { code: 'EIO' });
    expect(flushFailure(io)).toBe(io);
  });
});

// MetadataDB.durable(): SQLite commits without its own fsync (synchronous=NORMAL) and durable()
// flushes the WAL on the thread pool, one flush for every commit made before it began; leave(), for
// a process about to exit, flushes here and now.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MetadataDB, type FileSync } from '../../../internal/metadata/db';

/** A fileSync that counts its calls and finishes each when the test says so. */
function gatedSync() {
  const pending: Array<{ resolve: () => void; reject: (err: Error) => void }> = [];
  let calls = 0;
  let started: (() => void) | undefined;
  const fileSync: FileSync = () =>
    new Promise<void>((resolve, reject) => {
      calls += 1;
      pending.push({ resolve, reject });
      started?.();
    });
  return {
    fileSync,
    get calls() {
      return calls;
    },
    /** Resolves once a flush is waiting to be finished. */
    whenWaiting: () => (pending.length > 0 ? Promise.resolve() : new Promise<void>((resolve) => (started = resolve))),
    finish: () => pending.shift()!.resolve(),
    /** Lets the flush `waiting` waits for happen, then waits for `waiting`. */
    async flushed(waiting: Promise<unknown>) {
      await this.whenWaiting();
      this.finish();
      await waiting;
    },
    fail: (err: Error) => pending.shift()!.reject(err),
  };
}

describe('MetadataDB durability', () => {
  let dir: string;
  let db: MetadataDB | undefined;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'berth-durable-'));
  });
  afterEach(() => {
    db?.close();
    db = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  const write = (d: MetadataDB, x: number) => d.tx(() => d.sqlite.prepare('INSERT INTO t (x) VALUES (?)').run(x));
  const open = (fileSync?: FileSync) => {
    db = MetadataDB.open(join(dir, 'meta.db'), [{ version: 1, description: 'a test table', sql: 'CREATE TABLE t (x INTEGER)' }], fileSync);
    return db;
  };

  it('commits without SQLite fsyncing (NORMAL), and a real durable() flushes the WAL', async () => {
    const d = open();
    expect(d.sqlite.pragma('synchronous', { simple: true })).toBe(1); // NORMAL
    write(d, 1);
    await expect(d.durable()).resolves.toBeUndefined();
  });

  it('flushes once for every commit made before the flush began, and not at all without a commit', async () => {
    const sync = gatedSync();
    const d = open(sync.fileSync);
    await sync.flushed(d.durable()); // the migration's commit
    expect(sync.calls).toBe(1);
    await d.durable();
    expect(sync.calls).toBe(1); // nothing written since

    for (let x = 0; x < 5; x++) write(d, x);
    await sync.flushed(Promise.all([d.durable(), d.durable(), d.durable()]));
    expect(sync.calls).toBe(2);
  });

  it('a commit made while a flush runs waits for the next flush', async () => {
    const sync = gatedSync();
    const d = open(sync.fileSync);
    write(d, 1);
    const early = d.durable();
    await sync.whenWaiting();
    write(d, 2); // after the flush under way began: it does not cover this one
    let lateDone = false;
    const late = d.durable().then(() => {
      lateDone = true;
    });
    sync.finish();
    await early;
    await sync.whenWaiting(); // the second flush, for the late commit
    expect(lateDone).toBe(false);
    expect(sync.calls).toBe(2);
    sync.finish();
    await late;
    expect(lateDone).toBe(true);
  });

  it('a failed flush rejects its waiters, and the next durable() flushes again', async () => {
    const sync = gatedSync();
    const d = open(sync.fileSync);
    write(d, 1);
    const failing = d.durable();
    await sync.whenWaiting();
    sync.fail(Object.assign(new Error('EIO: i/o error, fsync'), { code: 'EIO' }));
    await expect(failing).rejects.toThrow('EIO');
    await sync.flushed(d.durable());
    expect(sync.calls).toBe(2);
  });

  it('leave() flushes at once what no flush covers yet, and only that', async () => {
    const sync = gatedSync();
    const d = open(sync.fileSync);
    write(d, 1);
    write(d, 2);
    d.leave();
    // Covered by leave()'s own fsync: durable() has nothing left to flush.
    await d.durable();
    expect(sync.calls).toBe(0);
    d.leave();
    expect(d.sqlite.open).toBe(true); // left for the exit to drop, not checkpointed
    write(d, 3);
    d.leave();
    await d.durable();
    expect(sync.calls).toBe(0);
    expect(d.sqlite.prepare('SELECT x FROM t').all()).toEqual([{ x: 1 }, { x: 2 }, { x: 3 }]);
  });

  it('an in-memory database has nothing to flush', async () => {
    const sync = gatedSync();
    db = MetadataDB.open(':memory:', [{ version: 1, description: 'a test table', sql: 'CREATE TABLE t (x INTEGER)' }], sync.fileSync);
    write(db, 1);
    await db.durable();
    expect(sync.calls).toBe(0);
  });
});

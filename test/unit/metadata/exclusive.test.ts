// The metadata database is berthd's alone while it is open (locking_mode EXCLUSIVE, as containerd
// holds bolt's meta.db): another process's connection cannot read it, no -shm file exists, and once
// berthd closes it (or dies: the locks go with the process) anyone can open it again.
import Database from 'better-sqlite3';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { kindOf } from '../../../internal/errdefs/errors';
import { MetadataDB } from '../../../internal/metadata/db';

let dir: string;
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'berth-exclusive-'))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

it('holds the database file against other connections until it is closed, without a -shm file', () => {
  const path = join(dir, 'metadata.db');
  const db = MetadataDB.open(path);
  db.tx(() => db.prepare("INSERT INTO images (name, media_type, digest, size, config_digest, labels, created_at, updated_at) VALUES ('a', 'm', 'd', 1, 'c', '{}', 0, 0)").run());
  expect(db.prepare('SELECT name FROM images').all()).toEqual([{ name: 'a' }]);
  const other = new Database(path, { readonly: true, timeout: 0 });
  try {
    expect(() => other.prepare('SELECT name FROM images').all()).toThrow(/locked|busy/i);
  } finally {
    other.close();
  }
  expect(existsSync(`${path}-shm`)).toBe(false);
  expect(existsSync(`${path}-wal`)).toBe(true);
  db.close();

  const after = new Database(path, { readonly: true, timeout: 0 });
  try {
    expect(after.prepare('SELECT name FROM images').all()).toEqual([{ name: 'a' }]);
  } finally {
    after.close();
  }
});

it('refuses at once, naming the file, a database another process holds (a berthd older than the root lock)', () => {
  const path = join(dir, 'metadata.db');
  MetadataDB.open(path).close();
  // What a berthd before 2026-12-04 held: a shared WAL connection, here in a write transaction.
  const other = new Database(path);
  other.pragma('journal_mode = WAL');
  other.prepare('BEGIN IMMEDIATE').run();
  try {
    let caught: unknown;
    try {
      MetadataDB.open(path).close();
    } catch (err) {
      caught = err;
    }
    expect(kindOf(caught)).toBe('FailedPrecondition');
    expect((caught as Error).message).toContain(`metadata database ${path} is held by another process`);
  } finally {
    other.close();
  }
});

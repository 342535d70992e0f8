// A damaged metadata database is refused at open, named, with what to do about it; a row whose JSON
// is damaged is named down to its table, row and column. Before, berthd started on a file whose
// damaged pages recovery does not read and then failed call after call with "database disk image
// is malformed", naming nothing.
import Database from 'better-sqlite3';
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MetadataDB } from '../../../internal/metadata/db';
import { DatabaseCorruptError } from '../../../internal/metadata/errors';
import { ContainerStore, type ContainerMetadata, type ContainerStatus } from '../../../internal/cri/store/container';
import { ImageStore } from '../../../internal/images/store';
import { messageOf } from '../../../internal/errdefs/errors';
import { thrownBy } from '../../harness/thrown';

let dir: string;
let path: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'berth-corrupt-'));
  path = join(dir, 'metadata.db');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const hex = (c: string) => c.repeat(64);
const created: ContainerStatus = { pid: 0, createdAt: '1', startedAt: '0', finishedAt: '0', exitCode: 0, reason: '', message: '', unknown: false };
function meta(id: string): ContainerMetadata {
  return {
    id, name: `c-${id.slice(0, 4)}`, sandboxId: hex('s'), config: {} as ContainerMetadata['config'], imageRef: 'busybox',
    imageId: 'sha256:x', logPath: '', snapshotKey: id, stateDir: '/x', rootDir: '/y', stopSignal: 'SIGTERM',
    runtimeHandler: 'runc', runtimeType: 'io.containerd.runc.v2',
  };
}

/** A database berthd made and closed, its WAL folded into the file (as an operator's sqlite3 does). */
function madeDatabase(): void {
  const db = MetadataDB.open(path);
  const images = new ImageStore(db);
  images.put({ name: 'busybox', target: { mediaType: 'm', digest: `sha256:${hex('d')}`, size: 1 }, configDigest: `sha256:${hex('c')}`, labels: {} });
  const containers = new ContainerStore(db);
  containers.add(meta(hex('a')), { spec: 1 }, created);
  db.close();
  const plain = new Database(path);
  plain.pragma('wal_checkpoint(TRUNCATE)');
  plain.close();
}

/** Overwrites `length` bytes at `offset` with 0xA5. */
function garble(offset: number, length: number): void {
  const fd = openSync(path, 'r+');
  try {
    writeSync(fd, Buffer.alloc(length, 0xa5), 0, length, offset);
  } finally {
    closeSync(fd);
  }
}

/** The page where a table's b-tree begins (1-based, as SQLite numbers them). */
function rootPage(table: string): { page: number; pageSize: number } {
  const plain = new Database(path, { readonly: true });
  try {
    const { rootpage } = plain.prepare('SELECT rootpage FROM sqlite_master WHERE name = ?').get(table) as { rootpage: number };
    return { page: rootpage, pageSize: plain.pragma('page_size', { simple: true }) as number };
  } finally {
    plain.close();
  }
}

describe('MetadataDB.open on a damaged file', () => {
  it('refuses a damaged page that nothing reads at open, naming the file and the remedy', () => {
    madeDatabase();
    const { page, pageSize } = rootPage('images');
    garble((page - 1) * pageSize, pageSize);
    const err = thrownBy(() => MetadataDB.open(path));
    expect(err).toBeInstanceOf(DatabaseCorruptError);
    expect(messageOf(err)).toMatch(new RegExp(`^metadata database ${path} is corrupt: Tree \\d+ page ${page}: [^\\n]+; restore it from a backup or move it away$`));
  });

  it('refuses a file that is not a database, naming it', () => {
    madeDatabase();
    garble(0, 100);
    const err = thrownBy(() => MetadataDB.open(path));
    expect(err).toBeInstanceOf(DatabaseCorruptError);
    expect(messageOf(err)).toBe(`metadata database ${path} is corrupt: file is not a database; restore it from a backup or move it away`);
  });

  it('opens an intact file as before', () => {
    madeDatabase();
    const db = MetadataDB.open(path);
    expect(new ContainerStore(db).load().map((c) => c.id)).toEqual([hex('a')]);
    db.close();
  });
});

describe('a row whose JSON is damaged', () => {
  it('is named by table, row and column when the store loads it, and the file when it opens', () => {
    madeDatabase();
    const plain = new Database(path);
    plain.prepare('UPDATE containers SET status = ? WHERE id = ?').run('{"pid": 0, "crea\u0001', hex('a'));
    plain.close();
    const db = MetadataDB.open(path);
    try {
      const err = thrownBy(() => new ContainerStore(db).load());
      expect(err).toBeInstanceOf(DatabaseCorruptError);
      expect(messageOf(err)).toMatch(new RegExp(`^metadata database is corrupt: containers row "${hex('a')}", column status: .*JSON.*; restore it from a backup or move it away$`));
      expect(messageOf((err as DatabaseCorruptError).inFile(path))).toMatch(new RegExp(`^metadata database ${path} is corrupt: containers row "${hex('a')}", column status: `));
    } finally {
      db.close();
    }
  });
});

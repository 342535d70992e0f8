// The WAL goes back to a bounded size once checkpointed: a burst (thousands of records made and
// removed at once) left metadata.db-wal at 50 MB for good, as SQLite only ever reuses the file.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MetadataDB, WAL_SIZE_LIMIT } from '../../../internal/metadata/db';

describe('the metadata WAL after a burst', () => {
  let dir: string;
  let db: MetadataDB;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'berth-wal-size-'));
    db = MetadataDB.open(join(dir, 'metadata.db'));
  });
  afterEach(() => {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is cut back to the limit at the checkpoints after it', () => {
    const wal = join(dir, 'metadata.db-wal');
    db.prepare('CREATE TABLE burst (data BLOB)').run();
    const insert = db.prepare('INSERT INTO burst (data) VALUES (?)');
    db.tx(() => {
      for (let i = 0; i < 80; i++) insert.run(Buffer.alloc(256 << 10, i));
    });
    expect(statSync(wal).size).toBeGreaterThan(4 * WAL_SIZE_LIMIT);
    db.prepare('DELETE FROM burst').run();
    // Small commits after it: autocheckpoints run, and the WAL restarts from its beginning.
    for (let i = 0; i < 5; i++) insert.run(Buffer.from('small'));
    expect(statSync(wal).size).toBeLessThanOrEqual(WAL_SIZE_LIMIT);
  });
});

// A database is marked with the newest migration of the berth that opened it, and a berth that
// knows fewer refuses it before touching anything: that is what keeps an older berthd, started on
// a newer one's state (a package rollback), from misreading it. Every berth since the first has
// refused a newer schema, so migration 2 (the state layout of 2026-12-06) stops them all.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MetadataDB } from '../../../internal/metadata/db';
import { MIGRATIONS } from '../../../internal/metadata/migrations';

describe('the metadata schema version', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'berth-schema-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('marks the state layout older berths misread, and such a berth refuses the database', () => {
    const path = join(dir, 'metadata.db');
    const db = MetadataDB.open(path);
    expect(db.schemaVersion).toBe(2);
    db.prepare("INSERT INTO leases (id, created_at) VALUES ('kept', 1)").run();
    db.close();

    const older = MIGRATIONS.filter((m) => m.version === 1);
    expect(() => MetadataDB.open(path, older)).toThrow('metadata schema version 2 is newer than this berth knows (1)');
    const again = MetadataDB.open(path);
    expect(again.prepare('SELECT id FROM leases').all()).toEqual([{ id: 'kept' }]);
    again.close();
  });

  it('brings a database of the first schema up to date, records kept', () => {
    const path = join(dir, 'metadata.db');
    const first = MetadataDB.open(path, MIGRATIONS.filter((m) => m.version === 1));
    expect(first.schemaVersion).toBe(1);
    first.prepare("INSERT INTO leases (id, created_at) VALUES ('old', 1)").run();
    first.close();
    const db = MetadataDB.open(path);
    expect(db.schemaVersion).toBe(2);
    expect(db.prepare('SELECT id FROM leases').all()).toEqual([{ id: 'old' }]);
    db.close();
  });
});

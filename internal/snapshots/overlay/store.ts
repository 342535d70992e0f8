// The snapshots table (internal/metadata schema v1) as the overlay snapshotter sees it. All calls
// are synchronous better-sqlite3 statements; callers group them with MetadataDB.tx.
import type { MetadataDB } from '../../metadata/db';
import { notFound } from '../../errdefs/errors';
import type { Info, Kind } from '../types';

export interface SnapshotRow {
  key: string;
  id: number;
  kind: Kind;
  parent: string | null;
  labels: string;
  created_at: number;
  updated_at: number;
}

export class SnapshotStore {
  constructor(readonly db: MetadataDB) {}

  get(key: string): SnapshotRow | undefined {
    return this.db.prepare('SELECT * FROM snapshots WHERE key = ?').get(key) as SnapshotRow | undefined;
  }

  mustGet(key: string): SnapshotRow {
    const row = this.get(key);
    if (!row) throw notFound(`snapshot ${JSON.stringify(key)} not found`);
    return row;
  }

  /** Directory ids of the committed chain below `parent`, nearest first. */
  parentIds(parent: string | null): number[] {
    const ids: number[] = [];
    let key = parent;
    while (key !== null) {
      const row = this.mustGet(key);
      ids.push(row.id);
      key = row.parent;
    }
    return ids;
  }

  hasChildren(key: string): boolean {
    return this.db.prepare('SELECT 1 FROM snapshots WHERE parent = ? LIMIT 1').get(key) !== undefined;
  }

  hasId(id: number): boolean {
    return this.db.prepare('SELECT 1 FROM snapshots WHERE id = ?').get(id) !== undefined;
  }

  maxId(): number {
    const row = this.db.prepare('SELECT COALESCE(MAX(id), 0) AS max FROM snapshots').get() as { max: number };
    return row.max;
  }

  insert(row: SnapshotRow): void {
    this.db
      .prepare('INSERT INTO snapshots (key, id, kind, parent, labels, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)')
      .run(row.key, row.id, row.kind, row.parent, row.labels, row.created_at, row.updated_at);
  }

  /** Renames an active row to its committed name, optionally setting its parent. */
  commit(key: string, name: string, parent: string | null, labels: string, now: number): void {
    this.db
      .prepare("UPDATE snapshots SET key = ?, kind = 'committed', parent = ?, labels = ?, updated_at = ? WHERE key = ?")
      .run(name, parent, labels, now, key);
  }

  setLabels(key: string, labels: string, now: number): void {
    this.db.prepare('UPDATE snapshots SET labels = ?, updated_at = ? WHERE key = ?').run(labels, now, key);
  }

  /**
   * Renames snapshot `key` to `to`, its children following. The parent column's foreign key has no
   * ON UPDATE CASCADE, so its check waits for the end of the transaction this must run in.
   */
  rename(key: string, to: string, now: number): void {
    this.db.prepare('PRAGMA defer_foreign_keys = ON').run();
    this.db.prepare('UPDATE snapshots SET key = ?, updated_at = ? WHERE key = ?').run(to, now, key);
    this.db.prepare('UPDATE snapshots SET parent = ? WHERE parent = ?').run(to, key);
  }

  delete(key: string): void {
    this.db.prepare('DELETE FROM snapshots WHERE key = ?').run(key);
  }

  all(): SnapshotRow[] {
    return this.db.prepare('SELECT * FROM snapshots ORDER BY id').all() as SnapshotRow[];
  }
}

export function infoOf(row: SnapshotRow): Info {
  const info: Info = {
    kind: row.kind,
    name: row.key,
    labels: JSON.parse(row.labels) as Record<string, string>,
    created: new Date(row.created_at),
    updated: new Date(row.updated_at),
  };
  if (row.parent !== null) info.parent = row.parent;
  return info;
}

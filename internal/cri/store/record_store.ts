// The shared shape of the sandbox and container stores: records kept in memory for fast reads and
// persisted in SQLite on every change. Writes go to the database first (one transaction), then to
// memory, so what readers see is never ahead of what a restart would load.
import type { MetadataDB } from '../../metadata/db';
import { fromJSON, toJSON } from '../../metadata/json';
import { alreadyExists, isNotFound, notFound } from '../../errdefs/errors';
import { resolveIdPrefix } from './id_index';
import { labelKey, labelKeys, RecordIndex } from './record_index';

export interface StoredRecord<M, S> {
  readonly id: string;
  readonly name: string;
  readonly metadata: M;
  status: S;
}

export interface RecordTable {
  table: 'sandboxes' | 'containers';
  what: string; // "sandbox", "container": used in error messages
}

/** Column values beyond id/name/metadata/status that a concrete store persists. */
export type ExtraColumns = Record<string, string | number>;

export class RecordStore<M, S, R extends StoredRecord<M, S>> {
  protected readonly records = new Map<string, R>();
  private readonly byLabel: RecordIndex<R>;
  /** Every index kept beside `records`; a subclass adds its own before any record exists. */
  protected readonly indexes: RecordIndex<R>[] = [];

  constructor(
    protected readonly db: MetadataDB,
    protected readonly table: RecordTable,
    private readonly hydrate: (row: Record<string, unknown>, metadata: M, status: S) => R,
    private readonly labelsOf: (record: R) => Record<string, string> | undefined,
  ) {
    this.byLabel = this.addIndex((record) => labelKeys(this.labelsOf(record)));
  }

  protected addIndex(keysOf: (record: R) => Iterable<string>): RecordIndex<R> {
    const index = new RecordIndex(keysOf);
    for (const record of this.records.values()) index.add(record);
    this.indexes.push(index);
    return index;
  }

  private remember(record: R): void {
    this.records.set(record.id, record);
    for (const index of this.indexes) index.add(record);
  }

  private forget(record: R): void {
    this.records.delete(record.id);
    for (const index of this.indexes) index.remove(record);
  }

  /** Reloads every record from the database (at start). */
  load(): R[] {
    this.records.clear();
    for (const index of this.indexes) index.clear();
    const rows = this.db.prepare(`SELECT * FROM ${this.table.table}`).all() as Record<string, unknown>[];
    const table = this.table.table;
    for (const row of rows) {
      const id = String(row.id);
      this.remember(this.hydrate(row, fromJSON<M>(String(row.metadata), table, id, 'metadata'), fromJSON<S>(String(row.status), table, id, 'status')));
    }
    return [...this.records.values()];
  }

  protected insert(record: R, extra: ExtraColumns): void {
    if (this.records.has(record.id)) throw alreadyExists(`${this.table.what} "${record.id}" already exists`);
    const columns: ExtraColumns = {
      id: record.id,
      name: record.name,
      metadata: toJSON(record.metadata),
      status: toJSON(record.status),
      ...extra,
    };
    const names = Object.keys(columns);
    this.db.tx(() => {
      this.db
        .prepare(`INSERT INTO ${this.table.table} (${names.join(', ')}) VALUES (${names.map((n) => '@' + n).join(', ')})`)
        .run(columns);
    });
    this.remember(record);
  }

  /**
   * Whether lookups by ID and lists see the record; tryGet sees every record. A subclass hides
   * records that are not yet what their RPC promised (a pod still being created).
   */
  protected isVisible(_record: R): boolean {
    return true;
  }

  private *visibleIds(): Iterable<string> {
    for (const record of this.records.values()) if (this.isVisible(record)) yield record.id;
  }

  /** Exact ID or unique prefix of a visible record; NotFound / InvalidArgument (ambiguous) otherwise. */
  get(idOrPrefix: string): R {
    const exact = this.records.get(idOrPrefix);
    if (exact && this.isVisible(exact)) return exact;
    const id = resolveIdPrefix(this.visibleIds(), idOrPrefix, this.table.what);
    return this.records.get(id)!;
  }

  /** As get(), but undefined when nothing has that ID or prefix (idempotent verbs answer OK then). */
  find(idOrPrefix: string): R | undefined {
    try {
      return this.get(idOrPrefix);
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }

  /** The record with exactly this ID, visible or not. */
  tryGet(id: string): R | undefined {
    return this.records.get(id);
  }

  /** The visible records. */
  list(): R[] {
    const out: R[] = [];
    for (const record of this.records.values()) if (this.isVisible(record)) out.push(record);
    return out;
  }

  /**
   * The visible records carrying every label pair of `selector` (all of them for an empty one), in the
   * order list() gives (a record given a label by a metadata change comes after those created with
   * it): found through the label index from the rarest pair, then each tested.
   */
  withLabels(selector: Record<string, string> | undefined): R[] {
    const pairs = Object.entries(selector ?? {});
    if (pairs.length === 0) return this.list();
    let rarest: ReadonlySet<R> | undefined;
    for (const [k, v] of pairs) {
      const carrying = this.byLabel.get(labelKey(k, v));
      if (carrying.size === 0) return []; // no record has this pair: none has them all
      if (rarest === undefined || carrying.size < rarest.size) rarest = carrying;
    }
    const out: R[] = [];
    for (const record of rarest!) if (this.isVisible(record) && pairs.every(([k, v]) => this.labelsOf(record)?.[k] === v)) out.push(record);
    return out;
  }

  /** Applies fn to the status, persists the result, then publishes it in memory. */
  updateStatus(id: string, fn: (status: S) => S): S {
    const record = this.records.get(id);
    if (!record) throw notFound(`${this.table.what} "${id}" not found`);
    const next = fn(structuredClone(record.status));
    this.db.tx(() => {
      this.db.prepare(`UPDATE ${this.table.table} SET status = ? WHERE id = ?`).run(toJSON(next), id);
    });
    record.status = next;
    return next;
  }

  /** Metadata changes only while a record is being set up (e.g. the pod IP after CNI ADD). */
  updateMetadata(id: string, fn: (metadata: M) => M): M {
    const record = this.records.get(id);
    if (!record) throw notFound(`${this.table.what} "${id}" not found`);
    const next = fn(structuredClone(record.metadata));
    this.db.tx(() => {
      this.db.prepare(`UPDATE ${this.table.table} SET metadata = ? WHERE id = ?`).run(toJSON(next), id);
    });
    const before = this.indexes.map((index) => index.keys(record));
    (record as { metadata: M }).metadata = next;
    this.indexes.forEach((index, i) => index.update(record, before[i]!));
    return next;
  }

  delete(id: string): void {
    this.db.tx(() => {
      this.db.prepare(`DELETE FROM ${this.table.table} WHERE id = ?`).run(id);
    });
    const record = this.records.get(id);
    if (record !== undefined) this.forget(record);
  }
}

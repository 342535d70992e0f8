// Records by the keys they carry (a label pair, the pod a container belongs to), so the filtered
// lists the kubelet makes every second (a pod's containers by its UID label) find their few records
// without testing every record on the node. A key only narrows: callers still test what they asked.
export class RecordIndex<R> {
  private readonly byKey = new Map<string, Set<R>>();

  constructor(private readonly keysOf: (record: R) => Iterable<string>) {}

  add(record: R): void {
    for (const key of this.keysOf(record)) this.file(key, record);
  }

  remove(record: R): void {
    for (const key of this.keysOf(record)) this.unfile(key, record);
  }

  /** The keys `record` is filed under now (to give update() after a change). */
  keys(record: R): string[] {
    return [...this.keysOf(record)];
  }

  /** Re-files `record` after a change to what its keys come from; a key it kept keeps its place. */
  update(record: R, before: readonly string[]): void {
    const after = new Set(this.keysOf(record));
    for (const key of before) if (!after.has(key)) this.unfile(key, record);
    const had = new Set(before);
    for (const key of after) if (!had.has(key)) this.file(key, record);
  }

  private file(key: string, record: R): void {
    let records = this.byKey.get(key);
    if (records === undefined) {
      records = new Set();
      this.byKey.set(key, records);
    }
    records.add(record);
  }

  private unfile(key: string, record: R): void {
    const records = this.byKey.get(key);
    if (records === undefined) return;
    records.delete(record);
    if (records.size === 0) this.byKey.delete(key);
  }

  clear(): void {
    this.byKey.clear();
  }

  /** The records carrying `key`, in the order they were added. */
  get(key: string): ReadonlySet<R> {
    return this.byKey.get(key) ?? EMPTY;
  }
}

const EMPTY: ReadonlySet<never> = new Set<never>();

/** An index key for the label pair key=value; two pairs may share one (NUL in a key), never one pair two. */
export function labelKey(key: string, value: string): string {
  return `${key}\0${value}`;
}

/** The index keys of every label pair in `labels`. */
export function labelKeys(labels: Record<string, string> | undefined): string[] {
  return labels === undefined ? [] : Object.entries(labels).map(([k, v]) => labelKey(k, v));
}

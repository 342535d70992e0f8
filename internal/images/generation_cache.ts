// Answers derived from the image records, kept until the records change: the store's generation
// moves with every write, and a moved generation empties the cache before the next answer. The
// keys come from clients (any reference or ID prefix a CRI call names), so the cache has a bound:
// past it, it starts over instead of growing.
export class GenerationCache<V> {
  private readonly kept = new Map<string, V>();
  private generation = -1;

  constructor(
    private readonly currentGeneration: () => number,
    private readonly maxEntries = 1024,
  ) {}

  /** The kept answer for `key` if the records have not changed since, else undefined. */
  get(key: string): V | undefined {
    if (this.generation !== this.currentGeneration()) {
      this.kept.clear();
      this.generation = this.currentGeneration();
    }
    return this.kept.get(key);
  }

  /** Keeps `value` for `key` as of the current generation (call get() first in the same turn). */
  set(key: string, value: V): void {
    if (this.kept.size >= this.maxEntries) this.kept.clear();
    this.kept.set(key, value);
  }

  delete(key: string, value: V): void {
    if (this.kept.get(key) === value) this.kept.delete(key);
  }
}

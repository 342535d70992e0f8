// Writable-layer usage per container. Measuring walks the snapshot's upper directory, too slow to do
// on every kubelet poll, so each figure is kept for a while and, once old, still answered at once
// while a fresh one is measured in the background (at most one measurement per snapshot at a time).
import { isNotFound } from '../../errdefs/errors';
import type { Usage } from '../../snapshots/types';

export interface LayerUsage {
  /** When it was measured, ns since the epoch. */
  timestamp: bigint;
  usedBytes: bigint;
  inodesUsed: bigint;
}

interface Entry {
  /** null: the snapshot is gone. */
  value: LayerUsage | null;
  /** Absent until the first measurement of this snapshot has finished. */
  measuredAt?: number;
  refreshing?: Promise<LayerUsage | null>;
}

export interface WritableLayerCacheOptions {
  /** How long a figure is answered without measuring again. */
  maxAgeMs?: number;
  /** A background measurement failed (the stale figure stays). */
  onError?: (key: string, err: unknown) => void;
  now?: () => number;
}

export class WritableLayerCache {
  private readonly entries = new Map<string, Entry>();
  private readonly maxAgeMs: number;
  private readonly now: () => number;

  constructor(
    private readonly measure: (snapshotKey: string) => Promise<Usage>,
    private readonly opts: WritableLayerCacheOptions = {},
  ) {
    this.maxAgeMs = opts.maxAgeMs ?? 10_000;
    this.now = opts.now ?? Date.now;
  }

  /** The snapshot's usage; undefined when it does not exist. */
  async get(snapshotKey: string): Promise<LayerUsage | undefined> {
    const entry = this.entries.get(snapshotKey);
    if (entry?.measuredAt === undefined) return (await this.refresh(snapshotKey)) ?? undefined;
    if (this.now() - entry.measuredAt > this.maxAgeMs && entry.refreshing === undefined) {
      this.refresh(snapshotKey).catch((err: unknown) => this.opts.onError?.(snapshotKey, err));
    }
    return entry.value ?? undefined;
  }

  /** Drops the figures of snapshots not in `live`. */
  retain(live: ReadonlySet<string>): void {
    for (const key of this.entries.keys()) if (!live.has(key)) this.entries.delete(key);
  }

  get size(): number {
    return this.entries.size;
  }

  private refresh(snapshotKey: string): Promise<LayerUsage | null> {
    const running = this.entries.get(snapshotKey)?.refreshing;
    if (running) return running;
    const started = this.now();
    const p = this.measure(snapshotKey).then(
      (usage): LayerUsage => ({
        timestamp: BigInt(started) * 1_000_000n,
        usedBytes: BigInt(usage.size),
        inodesUsed: BigInt(usage.inodes),
      }),
      (err: unknown) => {
        if (isNotFound(err)) return null;
        throw err;
      },
    );
    const settle = (value: LayerUsage | null | undefined): void => {
      const entry = this.entries.get(snapshotKey);
      if (entry?.refreshing !== p) return; // dropped by retain() meanwhile
      if (value === undefined) {
        // Failed: keep the old figure (if any) and let the next call try again.
        if (entry.measuredAt === undefined) this.entries.delete(snapshotKey);
        else delete entry.refreshing;
        return;
      }
      this.entries.set(snapshotKey, { value, measuredAt: started });
    };
    const existing = this.entries.get(snapshotKey);
    if (existing) existing.refreshing = p;
    else this.entries.set(snapshotKey, { value: null, refreshing: p });
    p.then(settle, () => settle(undefined));
    return p;
  }
}

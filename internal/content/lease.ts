// In-process leases: what keeps a blob from garbage collection between the moment a pull or
// import fetches it and the moment an image record references it.
import type { ContentLease } from './types';

export interface Lease extends ContentLease {
  markCreated(digest: string): void;
}

/** While a GC runs: digests it must not delete although its `referenced` snapshot misses them. */
export interface GcTracking {
  protects(digest: string): boolean;
  end(): void;
}

export class LeaseSet {
  private readonly open_ = new Set<Lease>();
  private readonly trackers = new Set<Set<string>>();

  open(): Lease {
    const held = new Set<string>();
    const created = new Set<string>();
    const note = (digest: string) => {
      for (const t of this.trackers) t.add(digest);
    };
    const lease: Lease = {
      held,
      created,
      add: (digest) => {
        held.add(digest);
        note(digest);
      },
      markCreated: (digest) => {
        created.add(digest);
        held.add(digest);
        note(digest);
      },
      release: () => {
        // A GC that read the image records before this operation recorded its image must still
        // spare these blobs: remember them for every GC running now.
        for (const digest of held) note(digest);
        this.open_.delete(lease);
      },
    };
    this.open_.add(lease);
    return lease;
  }

  /** Blobs committed during a GC are spared by it even without a lease. */
  noteCommitted(digest: string): void {
    for (const t of this.trackers) t.add(digest);
  }

  beginTracking(): GcTracking {
    const touched = new Set<string>();
    this.trackers.add(touched);
    return {
      protects: (digest) => {
        if (touched.has(digest)) return true;
        for (const lease of this.open_) if (lease.held.has(digest)) return true;
        return false;
      },
      end: () => {
        this.trackers.delete(touched);
      },
    };
  }
}

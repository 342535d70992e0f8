// Open directories of the layer being applied, by the name entries use for them ("usr/lib"):
// tar entries come grouped by directory, so most entries find their parent here and cost no
// lookup at all. Least recently used ones are closed past a small bound. A dropped descriptor is
// only closed at the next release(), between entries, so one that an entry is still using stays
// valid until that entry is done.
import { closeSync } from 'node:fs';
import type { NewEntryDefaults } from './created_attrs';

export interface OpenDir {
  fd: number;
  /** Its real path: components under the root, none of them a symlink. */
  real: string[];
  /** What entries created in it get (created_attrs.ts), once learnt. */
  defaults?: NewEntryDefaults;
}

export const DIR_CACHE_SIZE = 32;

export class DirCache {
  private readonly dirs = new Map<string, OpenDir>();
  private readonly retired: number[] = [];

  constructor(private readonly capacity = DIR_CACHE_SIZE) {}

  get(key: string): OpenDir | undefined {
    const dir = this.dirs.get(key);
    if (dir !== undefined) {
      this.dirs.delete(key); // re-inserted: most recently used last
      this.dirs.set(key, dir);
    }
    return dir;
  }

  /** Takes ownership of dir.fd. */
  put(key: string, dir: OpenDir): void {
    const old = this.dirs.get(key);
    if (old !== undefined) {
      this.dirs.delete(key);
      this.retired.push(old.fd);
    }
    this.dirs.set(key, dir);
    if (this.dirs.size > this.capacity) {
      const [oldestKey, oldest] = this.dirs.entries().next().value as [string, OpenDir];
      this.dirs.delete(oldestKey);
      this.retired.push(oldest.fd);
    }
  }

  /**
   * Forgets every directory: after a directory or symlink was removed, any cached name may now
   * lead somewhere else (or nowhere).
   */
  clear(): void {
    for (const dir of this.dirs.values()) this.retired.push(dir.fd);
    this.dirs.clear();
  }

  /** Closes the dropped descriptors; call when no entry holds one. */
  release(): void {
    for (const fd of this.retired.splice(0)) closeSync(fd);
  }

  close(): void {
    this.clear();
    this.release();
  }
}

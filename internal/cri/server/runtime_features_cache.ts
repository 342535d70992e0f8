// What `runc features` said, kept on disk per binary (runtime-features.json under the root dir): a
// berthd restart then learns each handler's features with a stat instead of running the binary
// again (~25 ms, with a Go runtime starting beside the node's first calls). An entry holds while
// the binary is the same file, unchanged (device, inode, size, mtime, ctime), under the same kernel.
import { type BigIntStats, readFileSync, statSync } from 'node:fs';
import { z } from 'zod/v3';
import { replaceFileSync } from '../../fs/replace_file';

export const FEATURES_CACHE_FILE = 'runtime-features.json';

/** Bigger than any file this module writes: a file past it is not ours and is not read. */
const MAX_CACHE_BYTES = 64 * 1024;

// zod's v3 API, as the config schema (schema.ts): the v4 API that `zod` itself exports put ~500 KB
// more into berthd's bundle, read at every start.
const entrySchema = z.object({
  identity: z.string(),
  kernel: z.string(),
  recursiveReadOnlyMounts: z.boolean(),
});
const fileSchema = z.object({ version: z.literal(1), binaries: z.record(z.string(), entrySchema) });

type Entry = z.infer<typeof entrySchema>;

export interface CachedFeatures {
  recursiveReadOnlyMounts: boolean;
}

/** The file's identity: a replaced or rewritten binary (a runc upgrade) has another. */
function identityOf(st: BigIntStats): string {
  return [st.dev, st.ino, st.size, st.mtimeNs, st.ctimeNs].join(':');
}

export class FeaturesCache {
  private entries: Record<string, Entry> | undefined;

  /** `file` undefined: nothing is kept (tests, a daemon without a root dir). */
  constructor(
    private readonly file: string | undefined,
    private readonly kernel: string,
  ) {}

  /** What was learnt of `binary` (an absolute path) while it was the file of `identity` (identityOf). */
  get(binary: string, identity: string | undefined): CachedFeatures | undefined {
    const entry = this.load()[binary];
    if (entry === undefined || identity === undefined || entry.identity !== identity || entry.kernel !== this.kernel) return undefined;
    return { recursiveReadOnlyMounts: entry.recursiveReadOnlyMounts };
  }

  /**
   * Keeps what `binary` said, if it is still the file it was before it was asked (`identity`).
   * A file that cannot be written (a full disk, a read-only root) only means asking again next time.
   */
  set(binary: string, identity: string | undefined, features: CachedFeatures): void {
    if (this.file === undefined || identity === undefined || this.identityOf(binary) !== identity) return;
    const binaries = { ...this.load(), [binary]: { identity, kernel: this.kernel, ...features } };
    try {
      replaceFileSync(this.file, JSON.stringify({ version: 1, binaries }), 0o600);
      this.entries = binaries;
    } catch {
      // asked again at the next start
    }
  }

  /** The binary's identity now; undefined when it cannot be stat'ed. */
  identityOf(binary: string): string | undefined {
    try {
      return identityOf(statSync(binary, { bigint: true }));
    } catch {
      return undefined;
    }
  }

  private load(): Record<string, Entry> {
    if (this.entries !== undefined) return this.entries;
    this.entries = {};
    if (this.file === undefined) return this.entries;
    try {
      const st = statSync(this.file, { throwIfNoEntry: false });
      if (st?.isFile() === true && st.size <= MAX_CACHE_BYTES) {
        this.entries = fileSchema.parse(JSON.parse(readFileSync(this.file, 'utf8'))).binaries;
      }
    } catch {
      // unreadable or not ours: every binary is asked, and the file rewritten
    }
    return this.entries;
  }
}

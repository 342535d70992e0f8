// A directory tree read as a layer's entries see it: paths are byte strings (byte_names.ts) and a
// symlink on the way is followed as containerd's fs.RootPath follows it, inside the root.
import { closeSync, constants, openSync } from 'node:fs';
import { BerthError } from '../errdefs/errors';
import { DirCache, type OpenDir } from './dir_cache';
import { cleanEntryName, DirResolver } from './paths';

export class LayerTree {
  private readonly root: OpenDir;
  private readonly cache = new DirCache();
  private readonly dirs: DirResolver;

  constructor(path: string) {
    this.root = { fd: openSync(path, constants.O_RDONLY | constants.O_DIRECTORY), real: [] };
    this.dirs = new DirResolver(this.root, this.cache);
  }

  /**
   * The directory `rel` leads to ("" for the root), open; undefined when it leads to nothing, to
   * something that is not a directory, or round a symlink loop. The fd is valid until the next
   * call or close().
   */
  directoryAt(rel: string): number | undefined {
    this.cache.release();
    try {
      return this.dirs.resolve(cleanEntryName(rel), rel, { create: false })?.fd;
    } catch (err) {
      if (err instanceof BerthError) return undefined; // a file on the way, a loop: nothing to take after
      throw err;
    }
  }

  close(): void {
    this.cache.close();
    closeSync(this.root.fd);
  }
}

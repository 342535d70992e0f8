// Writes tar entries into a directory tree, one at a time and synchronously: files, dirs, links,
// devices, FIFOs and whiteouts. Every operation is relative to an open directory reached through
// paths.ts, and names a single component it never follows, so nothing lands outside the root even
// after an entry replaced a parent by a symlink. What is remembered for later (implied parents,
// directory times, written paths) is forgotten at and below every path an entry replaces.
// Synchronous on purpose: layer apply is thousands of tiny system calls, and each trip through the
// thread pool cost more than the call itself; applyLayer slices the work so the event loop turns.
import { closeSync, constants, ftruncateSync, openSync, readdirSync, writeSync } from 'node:fs';
import { BerthError, internal, invalidArgument, messageOf, resourceExhausted } from '../errdefs/errors';
import { errnoCode } from '../sys/fs';
import { isDirectoryMode, S_IFBLK, S_IFCHR, S_IFIFO, S_IFLNK, S_IFMT } from '../sys/fsat';
import {
  createFileAt,
  fchownAt,
  linkAt,
  mkdirAt,
  mknodAt,
  openDirAt,
  openDirBeneath,
  removeAt,
  setxattrAt,
  statAt,
  symlinkAt,
} from './byte_names';
import { applyOwnerModeXattrs, applyTimes, entryTimes } from './attributes';
import { CreatedAttrs, type Existing } from './created_attrs';
import { DirCache, type OpenDir } from './dir_cache';
import { cleanEntryName, DirResolver } from './paths';
import { MAX_REMEMBERED_PATHS, PathTree, type PathNode } from './path_tree';
import type { TarHeader } from './tar_header';
import type { EntryBody, TarSink } from './tar_reader';

/**
 * How whiteouts are written. "overlay": as overlayfs stores them in an upper dir (`.wh.NAME` → a
 * 0/0 character device NAME, `.wh..wh..opq` → xattr trusted.overlay.opaque=y), for a layer extracted
 * into its own empty directory. "remove": by deleting what they hide, for a layer applied on top of
 * a tree that already holds its parents (a plain dir or a mounted overlay).
 */
export type WhiteoutMode = 'overlay' | 'remove';

export const WHITEOUT_PREFIX = '.wh.';
export const WHITEOUT_META_PREFIX = '.wh..wh.';
export const WHITEOUT_OPAQUE = '.wh..wh..opq';
export const OVERLAY_OPAQUE_XATTR = 'trusted.overlay.opaque';

const NOT_A_DIRECTORY = new Set(['ELOOP', 'ENOTDIR']);
const NO_SPACE = new Set(['ENOSPC', 'EDQUOT']);
/**
 * A file up to this size whose data arrives in several slices (it straddles the decompressor's
 * output chunks) is gathered and written with one write(2).
 */
export const GATHER_MAX_BYTES = 64 * 1024;

/**
 * Entry errors that are not already ours become ResourceExhausted (a full disk) or Internal,
 * naming the entry and the errno code.
 */
function entryError(name: string, err: unknown): BerthError {
  if (err instanceof BerthError) return err;
  const code = errnoCode(err);
  // Errors of node:fs may come from another realm (jest's sandbox), where instanceof Error fails.
  const message = typeof (err as { message?: unknown } | null)?.message === 'string' ? (err as Error).message : messageOf(err);
  const text = `layer entry "${name}": ${code !== undefined && !message.includes(code) ? `${code}: ` : ''}${message}`;
  return code !== undefined && NO_SPACE.has(code) ? resourceExhausted(text, err) : internal(text, err);
}

/** A regular file being written: open until its last byte, then owner, mode, xattrs and times. */
class FileBody implements EntryBody {
  private gathered: Buffer | undefined;
  private filled = 0;
  /** For a sparse file (written at offsets, holes skipped): the offset reached. */
  private offset: number | undefined;

  constructor(
    private readonly fd: number,
    private readonly header: TarHeader,
    /** Its owner and mode as created. */
    private readonly existing: Existing,
    private readonly onClosed: () => void,
  ) {
    if (header.sparse !== undefined) this.offset = 0;
  }

  write(chunk: Buffer): void {
    // The first slice is short of the whole file only when the file straddles input chunks.
    if (this.offset === undefined && this.gathered === undefined && this.filled === 0 && chunk.length < this.header.size && this.header.size <= GATHER_MAX_BYTES) {
      this.gathered = Buffer.allocUnsafe(this.header.size);
    }
    if (this.gathered !== undefined) {
      this.filled += chunk.copy(this.gathered, this.filled);
      return;
    }
    this.filled += chunk.length;
    this.writeAll(chunk);
  }

  hole(length: number): void {
    this.offset = (this.offset ?? 0) + length;
  }

  end(): void {
    try {
      if (this.gathered !== undefined) this.writeAll(this.gathered.subarray(0, this.filled));
      // A sparse file's trailing hole: the size without the blocks.
      if (this.offset !== undefined) ftruncateSync(this.fd, this.offset);
      applyOwnerModeXattrs(this.fd, '', this.header, false, this.existing);
      applyTimes(this.fd, '', entryTimes(this.header));
    } catch (err) {
      throw entryError(this.header.name, err);
    } finally {
      this.close();
    }
  }

  close(): void {
    closeSync(this.fd);
    this.onClosed();
  }

  private writeAll(data: Buffer): void {
    try {
      let off = 0;
      while (off < data.length) {
        const n = writeSync(this.fd, data, off, data.length - off, this.offset ?? null);
        off += n;
        if (this.offset !== undefined) this.offset += n;
      }
    } catch (err) {
      throw entryError(this.header.name, err);
    }
  }
}

export interface EntryWriterOptions {
  whiteouts: WhiteoutMode;
  /** Bound on the paths remembered until the end of the layer (default MAX_REMEMBERED_PATHS). */
  maxRememberedPaths?: number;
}

export class EntryWriter implements TarSink {
  private readonly root: OpenDir;
  private readonly cache = new DirCache();
  private readonly dirs: DirResolver;
  private readonly paths: PathTree;
  private readonly whiteouts: WhiteoutMode;
  private readonly created = new CreatedAttrs();
  private open: FileBody | undefined;
  /** Hard links left unwritten in "overlay" mode: their targets are not in this layer (see finish()). */
  readonly linksOutside: string[] = [];

  constructor(root: string, opts: EntryWriterOptions) {
    this.root = { fd: openSync(root, constants.O_RDONLY | constants.O_DIRECTORY), real: [] };
    this.dirs = new DirResolver(this.root, this.cache);
    this.paths = new PathTree(opts.maxRememberedPaths ?? MAX_REMEMBERED_PATHS);
    this.whiteouts = opts.whiteouts;
  }

  entry(header: TarHeader): EntryBody | undefined {
    try {
      this.cache.release(); // the previous entry is done with every directory it used
      return this.write(header);
    } catch (err) {
      throw entryError(header.name, err);
    }
  }

  /**
   * Sets the directories' times (after all their content) and returns the directories the tar did
   * not describe: parents it implied, and "" for the root (which no entry describes).
   */
  finish(): string[] {
    this.applyDirTimes(() => this.root.fd, this.paths.root);
    return ['', ...this.paths.implied().filter((rel) => this.isPlainDirectory(rel))];
  }

  /** Closes every descriptor, including a file a failed apply left open. */
  close(): void {
    try {
      this.open?.close();
    } catch {
      // already failing: the caller removes the whole directory
    }
    this.cache.close();
    closeSync(this.root.fd);
  }

  private write(header: TarHeader): EntryBody | undefined {
    const parts = cleanEntryName(header.name);
    const base = parts.at(-1);
    // An entry naming the root ("./", ".") is ignored, as containerd ignores it: the root of a
    // layer takes its parent's attributes whatever a tar says (a "tar -C dir ." of a mktemp
    // directory would otherwise make every container's "/" 0700).
    if (base === undefined) return undefined;
    if (base.startsWith(WHITEOUT_PREFIX)) return this.writeWhiteout(parts, header);

    const dir = this.parentOf(parts, header.name);
    const real = [...dir.real, base];
    const node = this.paths.find(real);
    if (node !== undefined) node.implied = false;

    switch (header.type) {
      case 'file':
      case 'contiguous-file': {
        // Created with its permission bits (the setuid/setgid/sticky ones come with the chmod
        // after the chown), so that the chmod is most often not needed at all.
        const mode = header.mode & 0o777;
        const fd = this.replacing(dir, base, () => createFileAt(dir.fd, base, mode));
        let existing: Existing;
        try {
          existing = this.created.ofNewFile(dir, fd, mode);
        } catch (err) {
          closeSync(fd);
          throw err;
        }
        const body = new FileBody(fd, header, existing, () => (this.open = undefined));
        this.open = body; // closed by close() should anything below fail
        this.markWritten(real, header.name);
        return body;
      }
      case 'directory': {
        const fd = this.mkdirKeeping(dir, base);
        this.cache.put(parts.join('/'), { fd, real }); // its entries most likely come next
        applyOwnerModeXattrs(fd, '', header, false);
        // A directory's mtime changes with every entry written into it: set it once all are in.
        this.paths.node(real, header.name).times = entryTimes(header);
        this.markWritten(real, header.name);
        return undefined;
      }
      case 'link': {
        const target = this.hardLinkTarget(header);
        if (target === undefined) {
          // A layer extracted on its own may link to a file of a lower layer, which containerd
          // (applying each layer on its parents) accepts: the caller applies this one on its parents.
          if (this.whiteouts === 'overlay') {
            this.linksOutside.push(header.name);
            return undefined;
          }
          throw invalidArgument(`layer entry "${header.name}": hard link target "${header.linkname}" is not in this layer or its parents`);
        }
        this.replacing(dir, base, () => linkAt(target.dir.fd, target.name, dir.fd, base));
        // The link's own header then applies to the one inode, as containerd applies it: the
        // last header of the inode wins (and its chown drops a capability it does not repeat).
        applyOwnerModeXattrs(dir.fd, base, header, target.isSymlink);
        applyTimes(dir.fd, base, entryTimes(header));
        this.markWritten(real, header.name);
        return undefined;
      }
      case 'symlink':
        this.replacing(dir, base, () => symlinkAt(header.linkname, dir.fd, base));
        break;
      case 'character-device':
        this.replacing(dir, base, () => mknodAt(dir.fd, base, S_IFCHR | (header.mode & 0o7777), header.devmajor, header.devminor));
        break;
      case 'block-device':
        this.replacing(dir, base, () => mknodAt(dir.fd, base, S_IFBLK | (header.mode & 0o7777), header.devmajor, header.devminor));
        break;
      case 'fifo':
        this.replacing(dir, base, () => mknodAt(dir.fd, base, S_IFIFO | (header.mode & 0o7777)));
        break;
    }
    const isSymlink = header.type === 'symlink';
    applyOwnerModeXattrs(dir.fd, base, header, isSymlink, isSymlink ? this.created.ofNewEntry(dir) : undefined);
    applyTimes(dir.fd, base, entryTimes(header));
    this.markWritten(real, header.name);
    return undefined;
  }

  /** Only "remove" mode needs them (an opaque whiteout spares what this layer wrote). */
  private markWritten(real: readonly string[], entryName: string): void {
    if (this.whiteouts === 'remove') this.paths.node(real, entryName).written = true;
  }

  /** Creates `name` in dir with `create`, first removing whatever is already there. */
  private replacing<T>(dir: OpenDir, name: string, create: () => T): T {
    try {
      return create();
    } catch (err) {
      if (errnoCode(err) !== 'EEXIST') throw err;
    }
    this.remove(dir, name);
    return create();
  }

  /**
   * A directory entry keeps an existing directory (and its content) and replaces anything else.
   * Returns the directory, open. A kept one is about to get the entry's owner, mode and xattrs:
   * what the files created in it so far showed (under this or any other name) no longer holds.
   */
  private mkdirKeeping(dir: OpenDir, name: string): number {
    try {
      mkdirAt(dir.fd, name, 0o755);
    } catch (err) {
      if (errnoCode(err) !== 'EEXIST') throw err;
      try {
        const kept = openDirAt(dir.fd, name);
        this.created.invalidate();
        return kept;
      } catch (openErr) {
        if (!NOT_A_DIRECTORY.has(errnoCode(openErr) ?? '')) throw openErr;
      }
      this.replacing(dir, name, () => mkdirAt(dir.fd, name, 0o755));
    }
    return openDirAt(dir.fd, name);
  }

  /**
   * Removes `name` from dir and forgets everything remembered at or below it. Removing a directory
   * or a symlink may change where any cached name leads: the cache starts over.
   */
  private remove(dir: OpenDir, name: string): void {
    const kind = removeAt(dir.fd, name);
    if (kind === 'directory' || kind === 'symlink') this.cache.clear();
    if (kind !== 'missing') this.paths.forget([...dir.real, name]);
  }

  private parentOf(parts: readonly string[], entryName: string): OpenDir {
    return this.resolveCreating(parts.slice(0, -1), entryName);
  }

  private resolveCreating(dirParts: readonly string[], entryName: string): OpenDir {
    const onImplied = (real: string[]): void => void (this.paths.node(real, entryName).implied = true);
    return this.dirs.resolve(dirParts, entryName, { create: true, onImplied }) as OpenDir;
  }

  /** Where a hard link's target is; undefined when there is nothing at its name. */
  private hardLinkTarget(header: TarHeader): { dir: OpenDir; name: string; isSymlink: boolean } | undefined {
    const what = `layer entry "${header.name}": hard link target`;
    const parts = cleanEntryName(header.linkname, what);
    const name = parts.at(-1);
    if (name === undefined) throw invalidArgument(`${what} "${header.linkname}" names the root`);
    const dir = this.dirs.resolve(parts.slice(0, -1), header.name, { create: false });
    const st = dir === undefined ? undefined : statAt(dir.fd, name);
    if (dir === undefined || st === undefined) return undefined;
    if (isDirectoryMode(st.mode)) throw invalidArgument(`${what} "${header.linkname}" is a directory`);
    return { dir, name, isSymlink: (st.mode & S_IFMT) === S_IFLNK };
  }

  private writeWhiteout(parts: readonly string[], header: TarHeader): undefined {
    const base = parts.at(-1) as string;
    const dirParts = parts.slice(0, -1);
    if (base === WHITEOUT_OPAQUE) {
      const dir = this.resolveCreating(dirParts, header.name);
      if (this.whiteouts === 'overlay') {
        setxattrAt(dir.fd, '', OVERLAY_OPAQUE_XATTR, 'y');
      } else {
        // The directory is pinned by its fd: its /proc/self/fd path lists it, wherever it is.
        for (const child of readdirSync(`/proc/self/fd/${dir.fd}`, { encoding: 'latin1' })) {
          if (this.paths.find([...dir.real, child])?.written !== true) this.remove(dir, child);
        }
      }
      return undefined;
    }
    if (base.startsWith(WHITEOUT_META_PREFIX)) return undefined; // aufs bookkeeping (.wh..wh.plnk...): not content
    const hidden = base.slice(WHITEOUT_PREFIX.length);
    if (hidden === '' || hidden === '.' || hidden === '..') {
      throw invalidArgument(`layer entry "${header.name}": whiteout names no file`);
    }
    // A whiteout hides what the lower layers have (image-spec layer.md): a file this same layer
    // wrote is not its to hide, and containerd refuses such a layer. Extracted on its own, the
    // layer's directory starts empty, so anything already at the name is this layer's.
    const sameLayer = (): BerthError =>
      invalidArgument(`layer entry "${header.name}": whiteout of "${[...dirParts, hidden].join('/')}", which this same layer wrote`);
    if (this.whiteouts === 'remove') {
      const dir = this.dirs.resolve(dirParts, header.name, { create: false });
      if (dir === undefined) return undefined;
      if (this.wroteAtOrBelow(this.paths.find([...dir.real, hidden]))) throw sameLayer();
      this.remove(dir, hidden);
      return undefined;
    }
    const dir = this.resolveCreating(dirParts, header.name);
    try {
      mknodAt(dir.fd, hidden, S_IFCHR, 0, 0);
    } catch (err) {
      if (errnoCode(err) === 'EEXIST') throw sameLayer();
      throw err;
    }
    if (header.uid !== 0 || header.gid !== 0) fchownAt(dir.fd, hidden, header.uid, header.gid);
    return undefined;
  }

  /** True when this layer wrote `node` or anything below it (what a whiteout may not hide). */
  private wroteAtOrBelow(node: PathNode | undefined): boolean {
    if (node === undefined) return false;
    if (node.written === true || node.implied === true) return true;
    for (const child of node.children?.values() ?? []) if (this.wroteAtOrBelow(child)) return true;
    return false;
  }

  /**
   * Sets the remembered directory times below `node`, children before their parent. Each
   * directory is reached from its parent's fd without following anything, and opened only when
   * something below it needs its fd (openDir is lazy).
   */
  private applyDirTimes(openDir: () => number | undefined, node: PathNode): void {
    for (const [name, child] of node.children ?? []) {
      let fd: number | undefined | null = null; // null: not tried yet; undefined: not a directory any more
      const openChild = (): number | undefined => {
        if (fd === null) fd = openIfDirectory(openDir(), name);
        return fd;
      };
      try {
        if (child.children !== undefined) this.applyDirTimes(openChild, child);
        if (child.times === undefined) continue;
        if (fd !== null) {
          if (fd !== undefined) applyTimes(fd, '', child.times);
        } else {
          const parent = openDir();
          if (parent !== undefined) applyTimes(parent, name, child.times);
        }
      } finally {
        if (fd !== null && fd !== undefined) closeSync(fd);
      }
    }
  }

  /** True when `rel` is still a directory reached from the root without any symlink. */
  private isPlainDirectory(rel: string): boolean {
    try {
      closeSync(openDirBeneath(this.root.fd, rel));
      return true;
    } catch (err) {
      if (['ENOENT', 'ENOTDIR', 'ELOOP'].includes(errnoCode(err) ?? '')) return false;
      throw err;
    }
  }
}

function openIfDirectory(parent: number | undefined, name: string): number | undefined {
  if (parent === undefined) return undefined;
  try {
    return openDirAt(parent, name);
  } catch (err) {
    if (['ENOENT', 'ENOTDIR', 'ELOOP'].includes(errnoCode(err) ?? '')) return undefined;
    throw err;
  }
}

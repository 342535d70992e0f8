// Writes tar entries into a directory tree, one at a time and synchronously: files, dirs, links,
// devices, FIFOs and whiteouts. Every path goes through paths.ts first, so nothing lands outside
// the root. Synchronous on purpose: layer apply is thousands of tiny system calls, and each trip
// through the thread pool cost more than the call itself; applyLayer slices the work so the
// event loop still turns.
import { closeSync, lchownSync, linkSync, lstatSync, mkdirSync, openSync, readdirSync, rmSync, symlinkSync, writeSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { BerthError, internal, invalidArgument, messageOf } from '../errdefs/errors';
import * as sys from '../sys/fs';
import { applyFileAttributes, applyOwnerModeXattrs, applyTimes, entryTimes, type EntryTimes } from './attributes';
import { cleanEntryName, resolveDir } from './paths';
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

function lstatOrUndefined(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch (err) {
    if (sys.errnoCode(err) === 'ENOENT') return undefined;
    throw err;
  }
}

/** Entry errors that are not already ours become Internal, naming the entry. */
function entryError(name: string, err: unknown): BerthError {
  if (err instanceof BerthError) return err;
  return internal(`layer entry "${name}": ${messageOf(err)}`, err);
}

/** A regular file being written: open until its last byte, then owner, mode, xattrs and times. */
class FileBody implements EntryBody {
  constructor(
    private readonly fd: number,
    private readonly abs: string,
    private readonly header: TarHeader,
    private readonly onClosed: () => void,
  ) {}

  write(chunk: Buffer): void {
    try {
      let off = 0;
      while (off < chunk.length) off += writeSync(this.fd, chunk, off, chunk.length - off);
    } catch (err) {
      throw entryError(this.header.name, err);
    }
  }

  end(): void {
    try {
      applyFileAttributes(this.fd, this.abs, this.header);
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
}

export class EntryWriter implements TarSink {
  /** Paths (relative, real) this layer wrote, so an opaque whiteout in "remove" mode spares them. */
  private readonly written = new Set<string>();
  /** Directories created only because an entry needed a parent; insertion ordered. */
  private readonly implied = new Set<string>();
  private readonly dirTimes: Array<[string, EntryTimes]> = [];
  /**
   * Entry directory (as named) → its real path, for walks already done. Only removals can change
   * what a walk finds (creating something new never alters an existing path), so every removal
   * clears it.
   */
  private readonly resolved = new Map<string, string[]>();
  private open: FileBody | undefined;
  private rootDescribed = false;

  constructor(
    private readonly root: string,
    private readonly whiteouts: WhiteoutMode,
  ) {}

  entry(header: TarHeader): EntryBody | undefined {
    try {
      return this.write(header);
    } catch (err) {
      throw entryError(header.name, err);
    }
  }

  /** Closes a file left open by a failed apply. */
  abort(): void {
    try {
      this.open?.close();
    } catch {
      // already failing: the caller removes the whole directory
    }
  }

  /**
   * Sets the directories' times (after all their content) and returns the directories the tar did
   * not describe: parents it implied, and "" for the root when it had no "./" entry.
   */
  finish(): string[] {
    for (const [abs, times] of this.dirTimes.reverse()) applyTimes(abs, times);
    const implied = [...this.implied].filter((rel) => lstatOrUndefined(join(this.root, rel))?.isDirectory() === true);
    return this.rootDescribed ? implied : ['', ...implied];
  }

  private write(header: TarHeader): EntryBody | undefined {
    const parts = cleanEntryName(header.name);
    const base = parts.at(-1);
    if (base === undefined) return this.writeRoot(header);
    if (base.startsWith(WHITEOUT_PREFIX)) return this.writeWhiteout(parts, header);

    const dir = this.parentOf(parts, header.name);
    const rel = dir.length === 0 ? base : `${dir.join('/')}/${base}`;
    const abs = join(this.root, rel);
    const type = header.type;
    this.implied.delete(rel);
    this.written.add(rel);

    switch (type) {
      case 'file':
      case 'contiguous-file': {
        const fd = this.replacing(abs, () => openSync(abs, 'wx', 0o600));
        const body = new FileBody(fd, abs, header, () => (this.open = undefined));
        this.open = body;
        return body;
      }
      case 'directory':
        this.mkdirKeeping(abs);
        break;
      case 'symlink':
        this.replacing(abs, () => symlinkSync(header.linkname, abs));
        break;
      case 'link': {
        const target = this.hardLinkTarget(header);
        this.replacing(abs, () => linkSync(target, abs));
        return undefined; // one inode: the target's owner, mode and times already apply
      }
      case 'character-device':
        this.replacing(abs, () => sys.mknod(abs, sys.S_IFCHR | (header.mode & 0o7777), header.devmajor, header.devminor));
        break;
      case 'block-device':
        this.replacing(abs, () => sys.mknod(abs, sys.S_IFBLK | (header.mode & 0o7777), header.devmajor, header.devminor));
        break;
      case 'fifo':
        this.replacing(abs, () => sys.mkfifo(abs, header.mode & 0o7777));
        break;
    }
    applyOwnerModeXattrs(abs, header, type === 'symlink');
    // A directory's mtime changes with every entry written into it: set it once all are in.
    if (type === 'directory') this.dirTimes.push([abs, entryTimes(header)]);
    else applyTimes(abs, entryTimes(header));
    return undefined;
  }

  /** Creates `abs` with `create`, first removing whatever is already there. */
  private replacing<T>(abs: string, create: () => T): T {
    try {
      return create();
    } catch (err) {
      if (sys.errnoCode(err) !== 'EEXIST') throw err;
    }
    this.remove(abs);
    return create();
  }

  /** A directory entry keeps an existing directory (and its content) and replaces anything else. */
  private mkdirKeeping(abs: string): void {
    try {
      mkdirSync(abs, 0o755);
      return;
    } catch (err) {
      if (sys.errnoCode(err) !== 'EEXIST') throw err;
    }
    if (lstatOrUndefined(abs)?.isDirectory()) return;
    this.remove(abs);
    mkdirSync(abs, 0o755);
  }

  private remove(abs: string): void {
    rmSync(abs, { recursive: true, force: true });
    this.resolved.clear();
  }

  private parentOf(parts: readonly string[], entryName: string): string[] {
    return this.resolveCreating(parts.slice(0, -1), entryName);
  }

  private resolveCreating(dirParts: readonly string[], entryName: string): string[] {
    const key = dirParts.join('/');
    const hit = this.resolved.get(key);
    if (hit !== undefined) return hit;
    const dir = resolveDir(this.root, dirParts, entryName, { create: true, onImplied: (rel) => this.implied.add(rel) }) ?? [];
    this.resolved.set(key, dir);
    return dir;
  }

  private hardLinkTarget(header: TarHeader): string {
    const what = `layer entry "${header.name}": hard link target`;
    const parts = cleanEntryName(header.linkname, what);
    const base = parts.at(-1);
    if (base === undefined) throw invalidArgument(`${what} "${header.linkname}" names the root`);
    const dir = resolveDir(this.root, parts.slice(0, -1), header.name, { create: false });
    const abs = dir === undefined ? undefined : join(this.root, ...dir, base);
    const st = abs === undefined ? undefined : lstatOrUndefined(abs);
    if (abs === undefined || st === undefined) throw invalidArgument(`${what} "${header.linkname}" is not in this layer`);
    if (st.isDirectory()) throw invalidArgument(`${what} "${header.linkname}" is a directory`);
    return abs;
  }

  private writeRoot(header: TarHeader): undefined {
    if (header.type !== 'directory') {
      throw invalidArgument(`layer entry "${header.name}": names the root but is a ${header.type}, not a directory`);
    }
    applyOwnerModeXattrs(this.root, header, false);
    this.dirTimes.push([this.root, entryTimes(header)]);
    this.rootDescribed = true;
    return undefined;
  }

  private writeWhiteout(parts: readonly string[], header: TarHeader): undefined {
    const base = parts.at(-1) as string;
    const dirParts = parts.slice(0, -1);
    if (base === WHITEOUT_OPAQUE) {
      const dir = this.resolveCreating(dirParts, header.name);
      const abs = join(this.root, ...dir);
      if (this.whiteouts === 'overlay') {
        sys.lsetxattr(abs, OVERLAY_OPAQUE_XATTR, 'y');
      } else {
        for (const child of readdirSync(abs)) {
          const rel = [...dir, child].join('/');
          if (!this.written.has(rel)) this.remove(join(abs, child));
        }
      }
      return undefined;
    }
    if (base.startsWith(WHITEOUT_META_PREFIX)) return undefined; // aufs bookkeeping (.wh..wh.plnk...): not content
    const hidden = base.slice(WHITEOUT_PREFIX.length);
    if (hidden === '' || hidden === '.' || hidden === '..') {
      throw invalidArgument(`layer entry "${header.name}": whiteout names no file`);
    }
    if (this.whiteouts === 'remove') {
      const dir = resolveDir(this.root, dirParts, header.name, { create: false });
      if (dir !== undefined) this.remove(join(this.root, ...dir, hidden));
      return undefined;
    }
    const dir = this.parentOf([...dirParts, hidden], header.name);
    const rel = [...dir, hidden].join('/');
    const abs = join(this.root, rel);
    this.replacing(abs, () => sys.mknod(abs, sys.S_IFCHR, 0, 0));
    if (header.uid !== 0 || header.gid !== 0) lchownSync(abs, header.uid, header.gid);
    this.written.add(rel);
    return undefined;
  }
}

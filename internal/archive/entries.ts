// Writes tar entries into a directory tree, one at a time: files, dirs, links, devices, FIFOs and
// whiteouts. Every path goes through paths.ts first, so nothing lands outside the root.
import { lchownSync, linkSync, lstatSync, mkdirSync, readdirSync, rmSync, symlinkSync, type Stats } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import type { Extract, Header } from 'tar-stream';
import { invalidArgument } from '../errdefs/errors';
import * as sys from '../sys/fs';
import { applyOwnerModeXattrs, applyTimes, entryTimes, type EntryTimes } from './attributes';
import { cleanEntryName, resolveDir } from './paths';

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

export type EntryHeader = Header;
/** One entry as tar-stream's extract yields it: its header and a stream of its data. */
export type Entry = Extract extends AsyncIterable<infer E> ? E : never;

function lstatOrUndefined(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch (err) {
    if (sys.errnoCode(err) === 'ENOENT') return undefined;
    throw err;
  }
}

export class EntryWriter {
  /** Paths (relative, real) this layer wrote, so an opaque whiteout in "remove" mode spares them. */
  private readonly written = new Set<string>();
  /** Directories created only because an entry needed a parent; insertion ordered. */
  private readonly implied = new Set<string>();
  private readonly dirTimes: Array<[string, EntryTimes]> = [];
  private rootDescribed = false;

  constructor(
    private readonly root: string,
    private readonly whiteouts: WhiteoutMode,
  ) {}

  async write(entry: Entry): Promise<void> {
    const header = entry.header;
    const parts = cleanEntryName(header.name);
    const base = parts.at(-1);
    if (base === undefined) return this.writeRoot(header);
    if (base.startsWith(WHITEOUT_PREFIX)) return this.writeWhiteout(parts, header);

    const dir = this.parentOf(parts, header.name);
    const rel = [...dir, base].join('/');
    const abs = join(this.root, rel);
    const type = header.type ?? 'file';
    const existing = lstatOrUndefined(abs);
    if (existing && !(existing.isDirectory() && type === 'directory')) rmSync(abs, { recursive: true, force: true });
    this.implied.delete(rel);

    switch (type) {
      case 'file':
      case 'contiguous-file':
        await this.writeFile(abs, entry);
        break;
      case 'directory':
        if (!existing?.isDirectory()) mkdirSync(abs, 0o755);
        break;
      case 'symlink':
        symlinkSync(header.linkname ?? '', abs);
        break;
      case 'link':
        linkSync(this.hardLinkTarget(header), abs);
        this.written.add(rel);
        return; // one inode: the target's owner, mode and times already apply
      case 'character-device':
        sys.mknod(abs, sys.S_IFCHR | ((header.mode ?? 0) & 0o7777), header.devmajor ?? 0, header.devminor ?? 0);
        break;
      case 'block-device':
        sys.mknod(abs, sys.S_IFBLK | ((header.mode ?? 0) & 0o7777), header.devmajor ?? 0, header.devminor ?? 0);
        break;
      case 'fifo':
        sys.mkfifo(abs, (header.mode ?? 0) & 0o7777);
        break;
      default:
        throw invalidArgument(`layer entry "${header.name}": unsupported entry type ${String(header.type)}`);
    }
    this.written.add(rel);
    applyOwnerModeXattrs(abs, header, type === 'symlink');
    // A directory's mtime changes with every entry written into it: set it once all are in.
    if (type === 'directory') this.dirTimes.push([abs, entryTimes(header)]);
    else applyTimes(abs, entryTimes(header));
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

  private parentOf(parts: readonly string[], entryName: string): string[] {
    return this.resolveCreating(parts.slice(0, -1), entryName);
  }

  private resolveCreating(dirParts: readonly string[], entryName: string): string[] {
    const dir = resolveDir(this.root, dirParts, entryName, { create: true, onImplied: (rel) => this.implied.add(rel) });
    return dir ?? [];
  }

  private async writeFile(abs: string, entry: Entry): Promise<void> {
    const handle = await open(abs, 'wx', 0o600);
    try {
      for await (const chunk of entry) await handle.write(chunk as Buffer);
    } finally {
      await handle.close();
    }
  }

  private hardLinkTarget(header: EntryHeader): string {
    const what = `layer entry "${header.name}": hard link target`;
    const parts = cleanEntryName(header.linkname ?? '', what);
    const base = parts.at(-1);
    if (base === undefined) throw invalidArgument(`${what} "${header.linkname}" names the root`);
    const dir = resolveDir(this.root, parts.slice(0, -1), header.name, { create: false });
    const abs = dir === undefined ? undefined : join(this.root, ...dir, base);
    const st = abs === undefined ? undefined : lstatOrUndefined(abs);
    if (abs === undefined || st === undefined) throw invalidArgument(`${what} "${header.linkname}" is not in this layer`);
    if (st.isDirectory()) throw invalidArgument(`${what} "${header.linkname}" is a directory`);
    return abs;
  }

  private writeRoot(header: EntryHeader): void {
    if ((header.type ?? 'file') !== 'directory') {
      throw invalidArgument(`layer entry "${header.name}": names the root but is a ${header.type}, not a directory`);
    }
    applyOwnerModeXattrs(this.root, header, false);
    this.dirTimes.push([this.root, entryTimes(header)]);
    this.rootDescribed = true;
  }

  private writeWhiteout(parts: readonly string[], header: EntryHeader): void {
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
          if (!this.written.has(rel)) rmSync(join(abs, child), { recursive: true, force: true });
        }
      }
      return;
    }
    if (base.startsWith(WHITEOUT_META_PREFIX)) return; // aufs bookkeeping (.wh..wh.plnk...): not content
    const hidden = base.slice(WHITEOUT_PREFIX.length);
    if (hidden === '' || hidden === '.' || hidden === '..') {
      throw invalidArgument(`layer entry "${header.name}": whiteout names no file`);
    }
    if (this.whiteouts === 'remove') {
      const dir = resolveDir(this.root, dirParts, header.name, { create: false });
      if (dir !== undefined) rmSync(join(this.root, ...dir, hidden), { recursive: true, force: true });
      return;
    }
    const dir = this.parentOf([...dirParts, hidden], header.name);
    const rel = [...dir, hidden].join('/');
    const abs = join(this.root, rel);
    rmSync(abs, { recursive: true, force: true });
    sys.mknod(abs, sys.S_IFCHR, 0, 0);
    lchownIfNeeded(abs, header);
    this.written.add(rel);
  }
}

function lchownIfNeeded(abs: string, header: EntryHeader): void {
  const uid = header.uid ?? 0;
  const gid = header.gid ?? 0;
  if (uid !== 0 || gid !== 0) lchownSync(abs, uid, gid);
}

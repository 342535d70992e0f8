// Copies a directory of a rootfs view (overlay layers merged as the kernel would, or one plain
// directory) into an empty host directory, as containerd's fs.CopyDir seeds image volumes: owners,
// modes, times and xattrs kept, symlinks copied as links (never followed), hard links kept as links
// within the copy, FIFOs and device nodes re-created. Sources are names from readdir, lstat'ed and
// opened O_NOFOLLOW; the destination is reached only through directory fds with calls that follow
// no symlink (internal/sys/fsat.ts), so neither tree can redirect the copy.
import { closeSync, constants, fstatSync, lstatSync, openSync, read, readdirSync, readlinkSync, write, type BigIntStats } from 'node:fs';
import { promisify } from 'node:util';
import { failedPrecondition, invalidArgument, resourceExhausted } from '../errdefs/errors';
import { lgetxattr, llistxattr } from '../sys/fs';
import {
  createFileAt,
  fchmodAt,
  fchownAt,
  linkAt,
  mkdirAt,
  mknodAt,
  openDirAt,
  openDirBeneath,
  S_IFBLK,
  S_IFCHR,
  S_IFIFO,
  S_IFMT,
  setxattrAt,
  symlinkAt,
  utimensAt,
  type Timespec,
} from '../sys/fsat';
import { lookup, type ViewDir } from './root_path';

const readAsync = promisify(read);
const writeAsync = promisify(write);

export interface CopyLimits {
  /** Entries (of any kind) copied at most. */
  maxEntries: number;
  /** Bytes of regular-file content copied at most (hard links count once). */
  maxBytes: number;
  /** Directory nesting at most: each level holds one descriptor open while it is copied. */
  maxDepth: number;
}

/**
 * Generous: real images ship small volume seeds. They keep a hostile image from making one
 * CreateContainer copy without end, not from using disk (ENOSPC fails the copy like any write).
 */
export const DEFAULT_COPY_LIMITS: CopyLimits = { maxEntries: 1 << 20, maxBytes: 8 * 2 ** 30, maxDepth: 512 };

export interface CopyOptions {
  /** True for overlay layers: whiteouts hide, opaque directories end the merge, trusted.overlay.* stays behind. */
  overlay: boolean;
  limits?: CopyLimits;
  /** Extended attributes left behind (containerd drops security.selinux). */
  skipXattr?: (name: string) => boolean;
}

export interface CopyResult {
  entries: number;
  bytes: number;
}

const OPEN_SOURCE = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK | constants.O_NOCTTY;
const OPEN_DIR = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;
const CHUNK = 1 << 20;
/** Metadata-only entries between two yields to the event loop (file content yields by itself). */
const YIELD_EVERY = 256;
const OVERLAY_XATTR_PREFIX = 'trusted.overlay.';

const NS_PER_SEC = 1_000_000_000n;

/** Nanoseconds since the epoch as a Timespec; nsec stays in [0, 1e9) for times before 1970 too. */
function timespec(ns: bigint): Timespec {
  const nsec = ((ns % NS_PER_SEC) + NS_PER_SEC) % NS_PER_SEC;
  return { sec: Number((ns - nsec) / NS_PER_SEC), nsec: Number(nsec) };
}

/** glibc's major()/minor() of a 64-bit dev_t. */
function devNumbers(rdev: bigint): { major: number; minor: number } {
  return {
    major: Number(((rdev >> 8n) & 0xfffn) | ((rdev >> 32n) & ~0xfffn)),
    minor: Number((rdev & 0xffn) | ((rdev >> 12n) & ~0xffn)),
  };
}

/**
 * Copies the content of the view directory `view` into `destination` (which must exist, be a
 * directory and be empty), then gives `destination` the view directory's owner, mode, xattrs and
 * times. Throws ResourceExhausted past a limit; what was copied so far stays for the caller to remove.
 */
export async function copyViewInto(view: ViewDir, destination: string, options: CopyOptions): Promise<CopyResult> {
  const fd = openSync(destination, OPEN_DIR);
  try {
    if (readdirSync(`/proc/self/fd/${fd}`).length > 0) throw failedPrecondition(`${destination} is not initially empty`);
    const copier = new ViewCopier(fd, options);
    await copier.copyChildren(view, fd, []);
    copier.applyAttributes(view[0]!, lstatSync(view[0]!, { bigint: true }), fd, '', false);
    return copier.result();
  } finally {
    closeSync(fd);
  }
}

class ViewCopier {
  private readonly limits: CopyLimits;
  private readonly skipXattr: (name: string) => boolean;
  private entries = 0;
  private bytes = 0;
  /** The first copy of each multiply-linked source inode ("dev:ino"): its parent (path under the root) and name. */
  private readonly copied = new Map<string, { parent: string; name: string }>();

  constructor(
    private readonly rootFd: number,
    private readonly options: CopyOptions,
  ) {
    this.limits = options.limits ?? DEFAULT_COPY_LIMITS;
    const skip = options.skipXattr ?? (() => false);
    this.skipXattr = options.overlay ? (name) => name.startsWith(OVERLAY_XATTR_PREFIX) || skip(name) : skip;
  }

  result(): CopyResult {
    return { entries: this.entries, bytes: this.bytes };
  }

  /** Copies every name of the view directory into the directory open as dstFd (at `rel` under the root). */
  async copyChildren(view: ViewDir, dstFd: number, rel: readonly string[]): Promise<void> {
    if (rel.length > this.limits.maxDepth) throw resourceExhausted(`image volume nests directories deeper than ${this.limits.maxDepth}`);
    const names = new Set<string>();
    for (const dir of view) for (const name of readdirSync(dir)) names.add(name);
    for (const name of [...names].sort()) {
      const entry = lookup(view, name, this.options.overlay);
      if (entry === undefined) continue; // whited out
      if (++this.entries > this.limits.maxEntries) throw resourceExhausted(`image volume has more than ${this.limits.maxEntries} entries`);
      if (this.entries % YIELD_EVERY === 0) await new Promise((resolve) => setImmediate(resolve));
      const st = lstatSync(entry.hostPath, { bigint: true });
      if (entry.kind === 'dir') {
        mkdirAt(dstFd, name, 0o700);
        const childFd = openDirAt(dstFd, name);
        try {
          await this.copyChildren(entry.dirs, childFd, [...rel, name]);
          this.applyAttributes(entry.hostPath, st, childFd, '', false);
        } finally {
          closeSync(childFd);
        }
      } else if (entry.kind === 'symlink') {
        symlinkAt(readlinkSync(entry.hostPath), dstFd, name);
        this.applyAttributes(entry.hostPath, st, dstFd, name, true);
      } else {
        await this.copyOther(entry.hostPath, st, dstFd, rel, name);
      }
    }
  }

  /** A regular file, FIFO or device node; a socket is skipped (a layer tar cannot carry one). */
  private async copyOther(source: string, st: BigIntStats, dstFd: number, rel: readonly string[], name: string): Promise<void> {
    const key = `${st.dev}:${st.ino}`;
    const first = st.nlink > 1n ? this.copied.get(key) : undefined;
    if (first !== undefined) {
      this.linkTo(first, dstFd, name);
      return; // one inode: its owner, mode and times are already there
    }
    const type = Number(st.mode) & S_IFMT;
    const perm = Number(st.mode) & 0o7777;
    if (st.isFile()) {
      await this.copyContent(source, st, dstFd, name);
    } else if (st.isFIFO()) {
      mknodAt(dstFd, name, S_IFIFO | perm);
    } else if (st.isCharacterDevice() || st.isBlockDevice()) {
      const { major, minor } = devNumbers(st.rdev);
      mknodAt(dstFd, name, (type === S_IFCHR ? S_IFCHR : S_IFBLK) | perm, major, minor);
    } else {
      return;
    }
    this.applyAttributes(source, st, dstFd, name, false);
    if (st.nlink > 1n) this.copied.set(key, { parent: rel.join('/'), name });
  }

  private linkTo(first: { parent: string; name: string }, dstFd: number, name: string): void {
    const parentFd = openDirBeneath(this.rootFd, first.parent);
    try {
      linkAt(parentFd, first.name, dstFd, name);
    } finally {
      closeSync(parentFd);
    }
  }

  private async copyContent(source: string, st: BigIntStats, dstFd: number, name: string): Promise<void> {
    const src = openSync(source, OPEN_SOURCE);
    try {
      const opened = fstatSync(src, { bigint: true });
      if (!opened.isFile() || opened.ino !== st.ino || opened.dev !== st.dev) throw invalidArgument(`${source} changed while it was being copied`);
      const dst = createFileAt(dstFd, name, 0o600);
      try {
        const buffer = Buffer.allocUnsafe(CHUNK);
        for (;;) {
          const { bytesRead } = await readAsync(src, buffer, 0, CHUNK, null);
          if (bytesRead === 0) break;
          this.bytes += bytesRead;
          if (this.bytes > this.limits.maxBytes) throw resourceExhausted(`image volume holds more than ${this.limits.maxBytes} bytes`);
          for (let off = 0; off < bytesRead; ) off += (await writeAsync(dst, buffer, off, bytesRead - off)).bytesWritten;
        }
      } finally {
        closeSync(dst);
      }
    } finally {
      closeSync(src);
    }
  }

  /**
   * Owner, then mode (chown clears setuid bits), then xattrs (chown clears security.capability),
   * then times. `name` in dirFd, or dirFd itself for "".
   */
  applyAttributes(source: string, st: BigIntStats, dirFd: number, name: string, isSymlink: boolean): void {
    fchownAt(dirFd, name, Number(st.uid), Number(st.gid));
    if (!isSymlink) fchmodAt(dirFd, name, Number(st.mode) & 0o7777);
    for (const xattr of llistxattr(source)) {
      if (this.skipXattr(xattr)) continue;
      const value = lgetxattr(source, xattr);
      if (value !== undefined) setxattrAt(dirFd, name, xattr, value);
    }
    utimensAt(dirFd, name, timespec(st.atimeNs), timespec(st.mtimeNs));
  }
}

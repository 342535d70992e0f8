// Typed wrappers over the addon's fd-relative file calls (internal/sys/src/fsat.c). Each `name` is
// one path component in the directory open as `dirFd` and is never followed if it is a symlink;
// where a call takes "" it acts on `dirFd` itself. Failures throw Errors shaped like Node's fs
// errors: `code` ("ELOOP"), `errno`, `syscall`.
import { loadAddon } from './addon';

interface FsatAddon {
  openDirBeneath(dirFd: number, path: FsName): number;
  openDirAt(dirFd: number, name: FsName): number;
  createFileAt(dirFd: number, name: FsName, mode: number): number;
  mkdirAt(dirFd: number, name: FsName, mode: number): void;
  symlinkAt(target: FsName, dirFd: number, name: FsName): void;
  linkAt(oldDirFd: number, oldName: FsName, newDirFd: number, newName: FsName): void;
  mknodAt(dirFd: number, name: FsName, mode: number, major: number, minor: number): void;
  readlinkAt(dirFd: number, name: FsName): Buffer | null;
  statAt(dirFd: number, name: FsName): [number, number, number, number, number, number, number] | null;
  fchownAt(dirFd: number, name: FsName, uid: number, gid: number): void;
  fchmodAt(dirFd: number, name: FsName, mode: number): void;
  utimensAt(dirFd: number, name: FsName, atimeSec: number, atimeNsec: number, mtimeSec: number, mtimeNsec: number): void;
  setxattrAt(dirFd: number, name: FsName, xattr: string, value: Buffer): void;
  listXattrs(fd: number): string[];
  getXattr(fd: number, xattr: string): Buffer | null;
  removeAt(dirFd: number, name: FsName): RemovedKind;
}

const addon = (): FsatAddon => loadAddon<FsatAddon>();

/** A name or path: a string is passed as UTF-8, a Buffer as the bytes it holds. */
export type FsName = string | Buffer;

/** What removeAt found (and removed). */
export type RemovedKind = 'missing' | 'directory' | 'symlink' | 'other';

/** A time as whole seconds and nanoseconds, as the kernel keeps it. */
export interface Timespec {
  sec: number;
  nsec: number;
}

export interface StatAt {
  mode: number;
  uid: number;
  gid: number;
  atime: Timespec;
  mtime: Timespec;
}

export const S_IFMT = 0o170000;
export const S_IFDIR = 0o040000;
export const S_IFCHR = 0o020000;
export const S_IFBLK = 0o060000;
export const S_IFIFO = 0o010000;
export const S_IFLNK = 0o120000;

export const isDirectoryMode = (mode: number): boolean => (mode & S_IFMT) === S_IFDIR;

/**
 * The directory at `path` (components joined by "/", "" for dirFd itself) under dirFd, reached
 * without passing a symlink, ".." or magic link: openat2(RESOLVE_BENEATH|RESOLVE_NO_SYMLINKS), or a
 * walk of openat(O_NOFOLLOW) where the kernel lacks openat2. ELOOP/ENOTDIR/ENOENT otherwise.
 */
export function openDirBeneath(dirFd: number, path: FsName): number {
  return addon().openDirBeneath(dirFd, path);
}

/** The directory `name` (O_DIRECTORY|O_NOFOLLOW): ELOOP or ENOTDIR when it is anything else. */
export function openDirAt(dirFd: number, name: FsName): number {
  return addon().openDirAt(dirFd, name);
}

/** A new regular file open for writing (O_CREAT|O_EXCL|O_NOFOLLOW): EEXIST if anything is there. */
export function createFileAt(dirFd: number, name: FsName, mode: number): number {
  return addon().createFileAt(dirFd, name, mode);
}

export function mkdirAt(dirFd: number, name: FsName, mode: number): void {
  addon().mkdirAt(dirFd, name, mode);
}

export function symlinkAt(target: FsName, dirFd: number, name: FsName): void {
  addon().symlinkAt(target, dirFd, name);
}

/** A hard link to what is at oldName (a symlink there is linked itself, not followed). */
export function linkAt(oldDirFd: number, oldName: FsName, newDirFd: number, newName: FsName): void {
  addon().linkAt(oldDirFd, oldName, newDirFd, newName);
}

/** A device node or FIFO; `mode` carries the type bits (S_IFCHR | 0o600). */
export function mknodAt(dirFd: number, name: FsName, mode: number, major = 0, minor = 0): void {
  addon().mknodAt(dirFd, name, mode, major, minor);
}

/** The symlink's target (as UTF-8), or undefined when `name` is not a symlink. */
export function readlinkAt(dirFd: number, name: FsName): string | undefined {
  return readlinkBytesAt(dirFd, name)?.toString('utf8');
}

/** The symlink's target as its bytes, or undefined when `name` is not a symlink. */
export function readlinkBytesAt(dirFd: number, name: FsName): Buffer | undefined {
  return addon().readlinkAt(dirFd, name) ?? undefined;
}

/** lstat of `name` ("" for dirFd itself), or undefined when nothing is there. */
export function statAt(dirFd: number, name: FsName): StatAt | undefined {
  const st = addon().statAt(dirFd, name);
  if (st === null) return undefined;
  const [mode, uid, gid, aSec, aNsec, mSec, mNsec] = st;
  return { mode, uid, gid, atime: { sec: aSec, nsec: aNsec }, mtime: { sec: mSec, nsec: mNsec } };
}

export function fchownAt(dirFd: number, name: FsName, uid: number, gid: number): void {
  addon().fchownAt(dirFd, name, uid, gid);
}

/** chmod without following: a symlink at `name` fails (EOPNOTSUPP). */
export function fchmodAt(dirFd: number, name: FsName, mode: number): void {
  addon().fchmodAt(dirFd, name, mode);
}

export function utimensAt(dirFd: number, name: FsName, atime: Timespec, mtime: Timespec): void {
  addon().utimensAt(dirFd, name, atime.sec, atime.nsec, mtime.sec, mtime.nsec);
}

export function setxattrAt(dirFd: number, name: FsName, xattr: string, value: Buffer | string): void {
  addon().setxattrAt(dirFd, name, xattr, typeof value === 'string' ? Buffer.from(value) : value);
}

/** The names of the extended attributes of the file open as fd (none where unsupported). */
export function listXattrs(fd: number): string[] {
  return addon().listXattrs(fd);
}

/** The attribute's value, or undefined when the file open as fd has no attribute `xattr`. */
export function getXattr(fd: number, xattr: string): Buffer | undefined {
  return addon().getXattr(fd, xattr) ?? undefined;
}

/** Removes `name` (a directory with everything in it) and says what it was. */
export function removeAt(dirFd: number, name: FsName): RemovedKind {
  return addon().removeAt(dirFd, name);
}

// Typed wrappers over the addon's filesystem calls (internal/sys/src/fs.c): the calls Node lacks.
// Failures throw Errors shaped like Node's fs errors: `code` ("EPERM"), `errno`, `syscall`.
import { loadAddon } from './addon';

interface FsAddon {
  mount(source: string, target: string, fstype: string, flags: number, data: string): void;
  mountIn(dir: string, source: string, target: string, fstype: string, flags: number, data: string): void;
  umount2(target: string, flags: number): void;
  mknod(path: string, mode: number, major: number, minor: number): void;
  mkfifo(path: string, mode: number): void;
  lsetxattr(path: string, name: string, value: Buffer, flags: number): void;
  lgetxattr(path: string, name: string): Buffer | null;
  llistxattr(path: string): string[];
  lremovexattr(path: string, name: string): void;
  markTopDir(path: string): boolean;
}

const addon = (): FsAddon => loadAddon<FsAddon>();

// mount(2) flags (linux/mount.h).
export const MS_RDONLY = 0x1;
export const MS_NOSUID = 0x2;
export const MS_NODEV = 0x4;
export const MS_NOEXEC = 0x8;
export const MS_SYNCHRONOUS = 0x10;
export const MS_REMOUNT = 0x20;
export const MS_MANDLOCK = 0x40;
export const MS_DIRSYNC = 0x80;
export const MS_NOSYMFOLLOW = 0x100;
export const MS_NOATIME = 0x400;
export const MS_NODIRATIME = 0x800;
export const MS_BIND = 0x1000;
export const MS_MOVE = 0x2000;
export const MS_REC = 0x4000;
export const MS_SILENT = 0x8000;
export const MS_UNBINDABLE = 0x20000;
export const MS_PRIVATE = 0x40000;
export const MS_SLAVE = 0x80000;
export const MS_SHARED = 0x100000;
export const MS_RELATIME = 0x200000;
export const MS_STRICTATIME = 0x1000000;
export const MS_LAZYTIME = 0x2000000;

// umount2(2) flags.
export const MNT_FORCE = 0x1;
export const MNT_DETACH = 0x2;
export const MNT_EXPIRE = 0x4;
export const UMOUNT_NOFOLLOW = 0x8;

// File type bits for mknod.
export const S_IFIFO = 0o010000;
export const S_IFCHR = 0o020000;
export const S_IFBLK = 0o060000;

// setxattr flags.
export const XATTR_CREATE = 0x1;
export const XATTR_REPLACE = 0x2;

export function mount(source: string, target: string, fstype: string, flags: number, data = ''): void {
  addon().mount(source, target, fstype, flags, data);
}

/** mount(2) made with `dir` as the working directory (relative paths in `data` are from there); the process's own is untouched. */
export function mountIn(dir: string, source: string, target: string, fstype: string, flags: number, data = ''): void {
  addon().mountIn(dir, source, target, fstype, flags, data);
}

export function umount2(target: string, flags = 0): void {
  addon().umount2(target, flags);
}

/** Creates a device node or FIFO; `mode` includes the type bits (S_IFCHR | 0o600). */
export function mknod(path: string, mode: number, major = 0, minor = 0): void {
  addon().mknod(path, mode, major, minor);
}

export function mkfifo(path: string, mode: number): void {
  addon().mkfifo(path, mode);
}

/** Sets an extended attribute without following a symlink at `path`. */
export function lsetxattr(path: string, name: string, value: Buffer | string, flags = 0): void {
  addon().lsetxattr(path, name, typeof value === 'string' ? Buffer.from(value) : value, flags);
}

/** The attribute's value, or undefined when `path` has no attribute `name`. */
export function lgetxattr(path: string, name: string): Buffer | undefined {
  return addon().lgetxattr(path, name) ?? undefined;
}

export function llistxattr(path: string): string[] {
  return addon().llistxattr(path);
}

export function lremovexattr(path: string, name: string): void {
  addon().lremovexattr(path, name);
}

/** The errno code ("ENOENT") of an error thrown by these calls or by node:fs, if any. */
export function errnoCode(err: unknown): string | undefined {
  if (typeof err === 'object' && err !== null && 'code' in err) {
    const code = (err as { code: unknown }).code;
    return typeof code === 'string' ? code : undefined;
  }
  return undefined;
}

/**
 * Marks directory `path` as the top of unrelated trees (chattr +T, FS_TOPDIR_FL): ext4 then places
 * each new subdirectory in a block group of its own choosing instead of beside `path`. False where
 * the filesystem has no such flag (tmpfs, overlayfs); a symlink at `path` is refused (ELOOP).
 */
export function markTopDir(path: string): boolean {
  return addon().markTopDir(path);
}

// Owner, mode, extended attributes and times of an applied entry, in the order that keeps each:
// chown clears setuid/setgid bits and security.capability, so chmod and xattrs come after it.
import { chmodSync, fchmodSync, fchownSync, futimesSync, lchownSync, lutimesSync } from 'node:fs';
import * as sys from '../sys/fs';
import type { TarHeader } from './tar_header';

export interface EntryTimes {
  atime: number; // seconds since the epoch, fractional
  mtime: number;
}

/** The entry's times; PAX records keep sub-second precision the ustar header lacks. */
export function entryTimes(header: TarHeader): EntryTimes {
  return { atime: header.atime ?? header.mtime, mtime: header.mtime };
}

export function applyOwnerModeXattrs(path: string, header: TarHeader, isSymlink: boolean): void {
  lchownSync(path, header.uid, header.gid);
  if (!isSymlink) chmodSync(path, header.mode & 0o7777);
  for (const [name, value] of header.xattrs) sys.lsetxattr(path, name, value);
}

/** The same for a regular file still open as `fd` (one lookup of its path instead of four). */
export function applyFileAttributes(fd: number, path: string, header: TarHeader): void {
  fchownSync(fd, header.uid, header.gid);
  fchmodSync(fd, header.mode & 0o7777);
  for (const [name, value] of header.xattrs) sys.lsetxattr(path, name, value);
  const times = entryTimes(header);
  futimesSync(fd, times.atime, times.mtime);
}

export function applyTimes(path: string, times: EntryTimes): void {
  // lutimes changes the link itself for symlinks and behaves as utimes for everything else.
  lutimesSync(path, times.atime, times.mtime);
}

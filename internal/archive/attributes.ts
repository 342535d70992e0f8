// Owner, mode, extended attributes and times of an applied entry, in the order that keeps each:
// chown clears setuid/setgid bits and security.capability, so chmod and xattrs come after it.
// Every call names the entry as (open directory, name), or ("" for) an fd of the entry itself,
// and none follows a symlink. For an entry just created, what it already has (created_attrs.ts) is
// not set again: with no setuid/setgid bits to lose, a chown to the same owner changes nothing.
import type { Timespec } from '../sys/fsat';
import { fchmodAt, fchownAt, setxattrAt, utimensAt } from './byte_names';
import type { Existing } from './created_attrs';
import { errnoCode } from '../sys/fs';
import type { TarHeader } from './tar_header';

export interface EntryTimes {
  atime: Timespec;
  mtime: Timespec;
}

/**
 * The entry's times as containerd sets them: the access time is the later of atime and mtime, and
 * a time before the epoch (or past what Go's time.Duration holds) is the epoch (boundTime).
 */
export function entryTimes(header: TarHeader): EntryTimes {
  const mtime = bounded(header.mtime);
  const atime = header.atime === undefined ? mtime : bounded(later(header.atime, header.mtime));
  return { atime, mtime };
}

const EPOCH: Timespec = { sec: 0, nsec: 0 };
const MAX_SECONDS = 9_223_372_036; // (2^63 - 1) ns

const bounded = (t: Timespec): Timespec => (t.sec < 0 || t.sec > MAX_SECONDS ? EPOCH : t);
const later = (a: Timespec, b: Timespec): Timespec => (a.sec > b.sec || (a.sec === b.sec && a.nsec >= b.nsec) ? a : b);

/**
 * `name` in dirFd, or dirFd itself for "". A symlink gets no chmod: Linux has no mode for it.
 * `existing`: the owner and mode a just-created entry has (never setuid/setgid: those bits are
 * only set by the chmod here, after the chown that would clear them).
 */
export function applyOwnerModeXattrs(dirFd: number, name: string, header: TarHeader, isSymlink: boolean, existing?: Existing): void {
  if (existing === undefined || existing.uid !== header.uid || existing.gid !== header.gid) fchownAt(dirFd, name, header.uid, header.gid);
  const mode = header.mode & 0o7777;
  if (!isSymlink && existing?.mode !== mode) fchmodAt(dirFd, name, mode);
  for (const [key, value] of header.xattrs) {
    // trusted.* is the administrator's namespace, overlayfs's own among it (opaque, redirect,
    // origin): a layer changes what its lower layers show only through whiteout entries, so
    // containerd refuses these attributes and goes on, and so do we.
    if (key.startsWith(TRUSTED_XATTR_PREFIX)) continue;
    try {
      setxattrAt(dirFd, name, key, value);
    } catch (err) {
      const code = errnoCode(err);
      // Linux keeps user.* attributes on regular files and directories only: containerd skips
      // one on anything else (a symlink, a device) rather than failing the layer, and so do we.
      if (code === 'EPERM' && key.startsWith('user.') && !USER_XATTR_TYPES.has(header.type)) continue;
      // An attribute the filesystem has no room for (an unknown namespace): skipped, as containerd.
      if (code === 'ENOTSUP' || code === 'EOPNOTSUPP') continue;
      throw err;
    }
  }
}

const TRUSTED_XATTR_PREFIX = 'trusted.';

/** What the kernel lets carry a user.* extended attribute. */
const USER_XATTR_TYPES: ReadonlySet<TarHeader['type']> = new Set(['file', 'contiguous-file', 'directory']);

export function applyTimes(dirFd: number, name: string, times: EntryTimes): void {
  utimensAt(dirFd, name, times.atime, times.mtime);
}

// Owner, mode, extended attributes and times of an applied entry, in the order that keeps each:
// chown clears setuid/setgid bits and security.capability, so chmod and xattrs come after it.
import { chmodSync, lchownSync, lutimesSync } from 'node:fs';
import type { Header } from 'tar-stream';
import * as sys from '../sys/fs';

const XATTR_PAX_PREFIX = 'SCHILY.xattr.';

export interface EntryTimes {
  atime: number; // seconds since the epoch, fractional
  mtime: number;
}

/** The entry's times; PAX records keep sub-second precision the ustar header lacks. */
export function entryTimes(header: Header): EntryTimes {
  const pax = paxOf(header);
  const paxTime = (key: string): number | undefined => {
    const v = pax?.[key];
    const n = v === undefined ? NaN : Number.parseFloat(v);
    return Number.isFinite(n) ? n : undefined;
  };
  const mtime = paxTime('mtime') ?? (header.mtime ? header.mtime.getTime() / 1000 : 0);
  return { atime: paxTime('atime') ?? mtime, mtime };
}

/** xattrs carried as PAX `SCHILY.xattr.<name>` records. */
export function entryXattrs(pax: Record<string, string> | undefined): Array<[string, Buffer]> {
  if (!pax) return [];
  const out: Array<[string, Buffer]> = [];
  for (const [key, value] of Object.entries(pax)) {
    if (key.startsWith(XATTR_PAX_PREFIX)) out.push([key.slice(XATTR_PAX_PREFIX.length), Buffer.from(value, 'utf8')]);
  }
  return out;
}

/** The entry's PAX records (tar-stream types them as unknown; it fills a string map). */
export function paxOf(header: Header): Record<string, string> | undefined {
  return header.pax && typeof header.pax === 'object' ? (header.pax as Record<string, string>) : undefined;
}

export function applyOwnerModeXattrs(path: string, header: Header, isSymlink: boolean): void {
  lchownSync(path, header.uid ?? 0, header.gid ?? 0);
  if (!isSymlink) chmodSync(path, (header.mode ?? 0o644) & 0o7777);
  for (const [name, value] of entryXattrs(paxOf(header))) sys.lsetxattr(path, name, value);
}

export function applyTimes(path: string, times: EntryTimes): void {
  // lutimes changes the link itself for symlinks and behaves as utimes for everything else.
  lutimesSync(path, times.atime, times.mtime);
}

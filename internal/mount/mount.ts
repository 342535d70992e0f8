// Performs Mount data with mount(2): mountAll stacks a list onto one target (undoing what it did
// when a later mount fails), unmountAll peels every mount off a target.
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { BerthError, internal, invalidArgument, messageOf } from '../errdefs/errors';
import * as sys from '../sys/fs';
import { parseMountOptions } from './options';
import type { Mount } from './types';

// The kernel copies at most one page of mount data; longer overlay lowerdir lists fail with a
// confusing EINVAL. Such a list is made relative to the lower dirs' common parent and mounted from
// there (containerd's compactLowerdirOption and mountAt: an image of ~95 layers or more), and what
// still does not fit is refused with a message.
const MAX_MOUNT_DATA = 4095;

/** `data` with its lowerdirs relative to their common parent directory, or undefined when they have none to share. */
export function compactLowerdir(data: string): { dir: string; data: string } | undefined {
  const options = data.split(',');
  const at = options.findIndex((o) => o.startsWith('lowerdir='));
  if (at < 0) return undefined;
  const lowers = options[at]!.slice('lowerdir='.length).split(':');
  if (lowers.length < 2 || !lowers.every((l) => isAbsolute(l))) return undefined;
  let dir = dirname(lowers[0]!);
  while (dir !== '/' && !lowers.every((l) => l.startsWith(`${dir}/`))) dir = dirname(dir);
  if (dir === '/') return undefined;
  options[at] = `lowerdir=${lowers.map((l) => l.slice(dir.length + 1)).join(':')}`;
  return { dir, data: options.join(',') };
}

/** Mounts one Mount on `target` (a directory that exists). */
export function mountOne(m: Mount, target: string): void {
  const dest = m.target ? join(target, m.target) : target;
  const { flags, propagation, data } = parseMountOptions(m.options);
  const type = m.type === 'bind' ? 'none' : m.type;
  const compact = Buffer.byteLength(data) > MAX_MOUNT_DATA ? compactLowerdir(data) : undefined;
  const size = Buffer.byteLength(compact?.data ?? data);
  if (size > MAX_MOUNT_DATA) {
    throw invalidArgument(`mount ${m.type} on ${dest}: options are ${size} bytes${compact ? ' with the lower dirs relative' : ''}, over the ${MAX_MOUNT_DATA}-byte limit`);
  }
  // A remount with no data only changes flags (the read-only pass below covers bind mounts).
  if (compact) sys.mountIn(compact.dir, m.source, resolve(dest), type, flags & ~sys.MS_REMOUNT, compact.data);
  else if ((flags & sys.MS_REMOUNT) === 0 || data !== '') sys.mount(m.source, dest, type, flags & ~sys.MS_REMOUNT, data);
  try {
    for (const p of propagation) sys.mount('', dest, '', p, '');
    // Bind mounts ignore MS_RDONLY on the first call: read-only takes a remount.
    if ((flags & sys.MS_BIND) !== 0 && (flags & sys.MS_RDONLY) !== 0) {
      sys.mount('', dest, '', flags | sys.MS_REMOUNT, '');
    }
  } catch (err) {
    unmountQuietly(dest);
    throw err;
  }
}

/** Mounts each of `mounts` on `target` in order; on failure unmounts the ones already made (LIFO). */
export function mountAll(mounts: readonly Mount[], target: string): void {
  const done: string[] = [];
  for (const m of mounts) {
    try {
      mountOne(m, target);
      done.push(m.target ? join(target, m.target) : target);
    } catch (err) {
      for (const dest of done.reverse()) unmountQuietly(dest);
      if (err instanceof BerthError) throw err;
      throw internal(`mount ${m.type} ${m.source} on ${target} (options ${m.options.join(',')}): ${messageOf(err)}`, err);
    }
  }
}

/** Unmounts one layer of mounts from `target`; false when nothing was mounted there. */
export function unmount(target: string, flags = 0): boolean {
  try {
    sys.umount2(target, flags | sys.UMOUNT_NOFOLLOW);
    return true;
  } catch (err) {
    const code = sys.errnoCode(err);
    if (code === 'EINVAL' || code === 'ENOENT') return false;
    throw internal(`unmount ${target}: ${messageOf(err)}`, err);
  }
}

/** Unmounts everything stacked on `target` until it is no longer a mount point. */
export function unmountAll(target: string, flags = 0): void {
  // A bound on the loop so a mount that keeps reappearing cannot spin forever.
  for (let i = 0; i < 1000; i++) if (!unmount(target, flags)) return;
  throw internal(`unmount ${target}: still mounted after 1000 unmounts`);
}

function unmountQuietly(target: string): void {
  try {
    unmount(target, sys.MNT_DETACH);
  } catch {
    // Already failing: the first error is the one worth reporting.
  }
}

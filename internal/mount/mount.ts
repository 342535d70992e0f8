// Performs Mount data with mount(2): mountAll stacks a list onto one target (undoing what it did
// when a later mount fails), unmountAll peels every mount off a target.
import { join } from 'node:path';
import { BerthError, internal, invalidArgument, messageOf } from '../errdefs/errors';
import * as sys from '../sys/fs';
import { parseMountOptions } from './options';
import type { Mount } from './types';

// The kernel copies at most one page of mount data; longer overlay lowerdir lists fail with a
// confusing EINVAL, so we refuse them with a message instead.
const MAX_MOUNT_DATA = 4095;

/** Mounts one Mount on `target` (a directory that exists). */
export function mountOne(m: Mount, target: string): void {
  const dest = m.target ? join(target, m.target) : target;
  const { flags, propagation, data } = parseMountOptions(m.options);
  if (Buffer.byteLength(data) > MAX_MOUNT_DATA) {
    throw invalidArgument(`mount ${m.type} on ${dest}: options are ${Buffer.byteLength(data)} bytes, over the ${MAX_MOUNT_DATA}-byte limit`);
  }
  const type = m.type === 'bind' ? 'none' : m.type;
  // A remount with no data only changes flags (the read-only pass below covers bind mounts).
  if ((flags & sys.MS_REMOUNT) === 0 || data !== '') sys.mount(m.source, dest, type, flags & ~sys.MS_REMOUNT, data);
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

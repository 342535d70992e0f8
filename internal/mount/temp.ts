// Mounts a list on a fresh temp directory for the duration of fn, then unmounts and removes it,
// whatever fn does (containerd's mount.WithTempMount). A process killed (or stopped) meanwhile
// leaves the mount: cleanupTempMounts removes such leftovers from a directory given to temp mounts
// alone (containerd's <root>/tmpmounts, swept at its start).
import { readdirSync, rmdirSync } from 'node:fs';
import { mkdtemp, rmdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import * as sys from '../sys/fs';
import { mountAll, unmountAll } from './mount';
import type { Mount } from './types';

export interface TempMountOptions {
  /** Directory to create the mount point in (default os.tmpdir()): one cleanupTempMounts sweeps. */
  parent?: string;
}

/**
 * Unmounts and removes every mount point left in `dir` (a directory of temp mounts alone); returns
 * those removed. One that cannot be is passed to `failed` and left: never removed recursively, as
 * it could still show a snapshot's files.
 */
export function cleanupTempMounts(dir: string, failed: (target: string, err: unknown) => void): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (err) {
    if (sys.errnoCode(err) !== 'ENOENT') failed(dir, err);
    return [];
  }
  return names.map((name) => join(dir, name)).filter((target) => removeMountPoint(target, failed));
}

/** Unmounts what a leftover mount point shows (lazily) and removes it; false, with `failed` told, when it cannot. */
export function removeMountPoint(target: string, failed: (target: string, err: unknown) => void): boolean {
  try {
    unmountAll(target, sys.MNT_DETACH);
    rmdirSync(target);
    return true;
  } catch (err) {
    failed(target, err);
    return false;
  }
}

export async function withTempMount<T>(mounts: readonly Mount[], fn: (root: string) => Promise<T>, opts: TempMountOptions = {}): Promise<T> {
  const root = await mkdtemp(join(opts.parent ?? tmpdir(), 'berth-mount-'));
  try {
    mountAll(mounts, root);
  } catch (err) {
    await rmdir(root);
    throw err;
  }
  try {
    return await fn(root);
  } finally {
    // The mount point goes even when unmounting fails (then it is still mounted: rmdir fails
    // with EBUSY and the unmount error is the one reported).
    try {
      await unmountPatiently(root);
    } finally {
      await rmdir(root).catch(() => undefined);
    }
  }
}

// A file fn just closed can keep the mount busy for a moment; retry, then detach it lazily so the
// mount point never outlives the call.
async function unmountPatiently(root: string): Promise<void> {
  for (let attempt = 0; attempt < 10; attempt++) {
    try {
      unmountAll(root);
      return;
    } catch (err) {
      if (sys.errnoCode(err instanceof Error ? err.cause : undefined) !== 'EBUSY') throw err;
      await sleep(20 * (attempt + 1));
    }
  }
  unmountAll(root, sys.MNT_DETACH);
}

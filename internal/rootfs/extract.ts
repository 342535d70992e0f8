// The two ways one layer becomes a snapshot's content.
//  - detached: into an active snapshot with no parent, whiteouts stored overlay-style; needs
//    nothing from the layers below, so several run at once. Its directories the tar did not
//    describe then take their attributes from the parent chain (adoptParentAttributes).
//  - on parent (containerd's way): into an active snapshot on its parent, mounted, whiteouts
//    applied by deleting. Used when the snapshotter cannot rebase, or a layer needs its parents.
import { randomBytes } from 'node:crypto';
import { closeSync, constants, openSync } from 'node:fs';
import { applyLayerOffThread, type ApplyResult, type WhiteoutMode } from '../archive';
import { wrap } from '../errdefs/errors';
import { withTempMount } from '../mount';
import type { Snapshotter } from '../snapshots/types';
import { errnoCode } from '../sys/fs';
import { fchmodAt, fchownAt, getXattr, isDirectoryMode, listXattrs, openDirAt, openDirBeneath, setxattrAt, statAt, utimensAt, type StatAt } from '../sys/fsat';
import type { Layer } from './types';

export const extractKey = (chainID: string): string => `extract-${randomBytes(6).toString('hex')}-${chainID}`;
const adoptKey = (parent: string): string => `adopt-${randomBytes(6).toString('hex')}-${parent}`;

/** Keys of the temporary snapshots an unpack makes (extractKey, adoptKey): never a container's. */
export function isUnpackKey(name: string): boolean {
  return /^(extract|adopt)-[0-9a-f]{12}-/.test(name);
}

/** Applies `layer` into active snapshot `key` (already prepared), checking its diffID. */
export async function applyInto(sn: Snapshotter, key: string, layer: Layer, whiteouts: WhiteoutMode): Promise<ApplyResult> {
  const mounts = await sn.mounts(key);
  // Opened first: it may wait for the layer's download, and the snapshot is mounted only to apply.
  const source = await layer.open();
  try {
    return await withTempMount(
      mounts,
      async (dir) => {
        try {
          return await applyLayerOffThread(dir, source, { expectedDiffID: layer.diffID, whiteouts });
        } catch (err) {
          throw wrap(err, `apply layer ${layer.descriptor.digest} (diffID ${layer.diffID})`);
        }
      },
      { parent: sn.tempMountDir },
    );
  } finally {
    source.destroy();
  }
}

/** A parent path where the layer expected a directory holds something else: extract it on its parent. */
export class NeedsParent extends Error {}

/**
 * Gives each of `dirs` (relative to the snapshot root, "" for the root) in extract snapshot `key`
 * the owner, mode, times and extended attributes (but trusted.*, as containerd's copyUpXAttrs) that
 * directory has in the merged `parent` chain, as if the layer had been applied on top of it.
 * Throws NeedsParent when a path is not a directory in the parent (e.g. the layer walked through a
 * symlink of a lower layer). Both trees are walked from open directories without following any
 * symlink: a path that is not a plain chain of directories in this layer is left alone.
 */
export async function adoptParentAttributes(sn: Snapshotter, key: string, parent: string, dirs: readonly string[]): Promise<void> {
  if (dirs.length === 0 || parent === '') return;
  const viewKey = adoptKey(parent);
  const viewMounts = await sn.view(viewKey, parent);
  try {
    const ownMounts = await sn.mounts(key);
    const at = { parent: sn.tempMountDir };
    await withTempMount(viewMounts, (lower) =>
      withTempMount(ownMounts, async (upper) => {
        const lowerFd = openSync(lower, constants.O_RDONLY | constants.O_DIRECTORY);
        const upperFd = openSync(upper, constants.O_RDONLY | constants.O_DIRECTORY);
        try {
          for (const rel of dirs) adoptOne(lowerFd, upperFd, rel, parent);
        } finally {
          closeSync(lowerFd);
          closeSync(upperFd);
        }
      }, at),
      at,
    );
  } finally {
    await sn.remove(viewKey);
  }
}

function adoptOne(lowerFd: number, upperFd: number, rel: string, parent: string): void {
  const source = openLowerDir(lowerFd, rel, parent);
  if (source === undefined) return;
  try {
    const target = openPlainDir(upperFd, rel);
    if (target === undefined) return;
    try {
      const st = statAt(source, '') as StatAt;
      fchownAt(target, '', st.uid, st.gid);
      fchmodAt(target, '', st.mode & 0o7777);
      for (const name of listXattrs(source)) {
        if (name.startsWith('trusted.')) continue;
        const value = getXattr(source, name);
        if (value !== undefined) setxattrAt(target, '', name, value);
      }
      utimensAt(target, '', st.atime, st.mtime);
    } finally {
      if (target !== upperFd) closeSync(target);
    }
  } finally {
    if (source !== lowerFd) closeSync(source);
  }
}

const UNREACHABLE = new Set(['ENOENT', 'ENOTDIR', 'ELOOP']);

/** `rel` under dirFd when it is a directory reached without a symlink (dirFd itself for ""). */
function openPlainDir(dirFd: number, rel: string): number | undefined {
  if (rel === '') return dirFd;
  try {
    return openDirBeneath(dirFd, rel);
  } catch (err) {
    if (UNREACHABLE.has(errnoCode(err) ?? '')) return undefined;
    throw err;
  }
}

/**
 * The parent chain's directory at `rel`: undefined when nothing is there to merge with (missing,
 * or under something that is not a directory); NeedsParent when `rel` itself is not a directory.
 */
function openLowerDir(lowerFd: number, rel: string, parent: string): number | undefined {
  if (rel === '') return lowerFd;
  const slash = rel.lastIndexOf('/');
  const dir = openPlainDir(lowerFd, slash < 0 ? '' : rel.slice(0, slash));
  if (dir === undefined) return undefined;
  const name = rel.slice(slash + 1);
  try {
    const st = statAt(dir, name);
    if (st === undefined) return undefined;
    if (!isDirectoryMode(st.mode)) throw new NeedsParent(`"${rel}" is not a directory in parent ${parent}`);
    return openDirAt(dir, name);
  } finally {
    if (dir !== lowerFd) closeSync(dir);
  }
}

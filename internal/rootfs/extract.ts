// The two ways one layer becomes a snapshot's content.
//  - detached: into an active snapshot with no parent, whiteouts stored overlay-style; needs
//    nothing from the layers below, so several run at once. Its directories the tar did not
//    describe then take their attributes from the parent chain (adoptParentAttributes).
//  - on parent (containerd's way): into an active snapshot on its parent, mounted, whiteouts
//    applied by deleting. Used when the snapshotter cannot rebase, or a layer needs its parents.
import { randomBytes } from 'node:crypto';
import { closeSync, constants, openSync } from 'node:fs';
import { applyLayerOffThread, LayerTree, openLayerDirBeneath, type ApplyResult, type WhiteoutMode } from '../archive';
import { wrap } from '../errdefs/errors';
import { withTempMount } from '../mount';
import type { Snapshotter } from '../snapshots/types';
import { errnoCode } from '../sys/fs';
import { fchmodAt, fchownAt, getXattr, listXattrs, setxattrAt, statAt, utimensAt, type StatAt } from '../sys/fsat';
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

/** The layer needs its parents to be extracted (a hard link to a lower layer's file): extract it on them. */
export class NeedsParent extends Error {}

/**
 * Gives each of `dirs` (relative to the snapshot root, "" for the root; byte strings, as the
 * archive carries names) in extract snapshot `key` the owner, mode, times and extended
 * attributes (but trusted.*, as containerd's copyUpXAttrs) of what that path leads to in the
 * merged `parent` chain, as containerd's mkparent gives a directory it makes in an upper dir the
 * attributes of fs.RootPath(parent, path): a symlink of a lower layer on the way is followed
 * inside the root, and where it leads to nothing or to something that is not a directory the
 * directory keeps the 0755 root-owned attributes it was made with (and, in the merged rootfs,
 * hides what is below it, as under containerd). This layer's own tree is walked from open
 * directories without following any symlink: a path that is not a plain chain of directories in
 * it is left alone.
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
        const lowerTree = new LayerTree(lower);
        try {
          const upperFd = openSync(upper, constants.O_RDONLY | constants.O_DIRECTORY);
          try {
            for (const rel of dirs) adoptOne(lowerTree, upperFd, rel);
          } finally {
            closeSync(upperFd);
          }
        } finally {
          lowerTree.close(); // also when the upper dir cannot be opened
        }
      }, at),
      at,
    );
  } finally {
    await sn.remove(viewKey);
  }
}

function adoptOne(lowerTree: LayerTree, upperFd: number, rel: string): void {
  const source = lowerTree.directoryAt(rel);
  if (source === undefined) return;
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
}

const UNREACHABLE = new Set(['ENOENT', 'ENOTDIR', 'ELOOP']);

/** `rel` under dirFd when it is a directory reached without a symlink (dirFd itself for ""). */
function openPlainDir(dirFd: number, rel: string): number | undefined {
  if (rel === '') return dirFd;
  try {
    return openLayerDirBeneath(dirFd, rel);
  } catch (err) {
    if (UNREACHABLE.has(errnoCode(err) ?? '')) return undefined;
    throw err;
  }
}

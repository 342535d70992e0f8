// The two ways one layer becomes a snapshot's content.
//  - detached: into an active snapshot with no parent, whiteouts stored overlay-style; needs
//    nothing from the layers below, so several run at once. Its directories the tar did not
//    describe then take their attributes from the parent chain (adoptParentAttributes).
//  - on parent (containerd's way): into an active snapshot on its parent, mounted, whiteouts
//    applied by deleting. Used when the snapshotter cannot rebase, or a layer needs its parents.
import { randomBytes } from 'node:crypto';
import { chmodSync, chownSync, lstatSync, utimesSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { applyLayer, type ApplyResult, type WhiteoutMode } from '../archive';
import { wrap } from '../errdefs/errors';
import { withTempMount } from '../mount';
import type { Snapshotter } from '../snapshots/types';
import { errnoCode } from '../sys/fs';
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
  return withTempMount(mounts, async (dir) => {
    const source = await layer.open();
    try {
      return await applyLayer(dir, source, { expectedDiffID: layer.diffID, whiteouts });
    } catch (err) {
      throw wrap(err, `apply layer ${layer.descriptor.digest} (diffID ${layer.diffID})`);
    } finally {
      source.destroy();
    }
  });
}

/** A parent path where the layer expected a directory holds something else: extract it on its parent. */
export class NeedsParent extends Error {}

/**
 * Gives each of `dirs` (relative to the snapshot root, "" for the root) in extract snapshot `key`
 * the owner, mode and times that directory has in the merged `parent` chain, as if the layer had
 * been applied on top of it. Throws NeedsParent when a path is not a directory in the parent
 * (e.g. the layer walked through a symlink of a lower layer).
 */
export async function adoptParentAttributes(sn: Snapshotter, key: string, parent: string, dirs: readonly string[]): Promise<void> {
  if (dirs.length === 0 || parent === '') return;
  const viewKey = adoptKey(parent);
  const viewMounts = await sn.view(viewKey, parent);
  try {
    const ownMounts = await sn.mounts(key);
    await withTempMount(viewMounts, (lower) =>
      withTempMount(ownMounts, async (upper) => {
        for (const rel of dirs) {
          const st = lstatBeneath(lower, rel);
          if (st === undefined) continue;
          if (!st.isDirectory()) throw new NeedsParent(`"${rel}" is not a directory in parent ${parent}`);
          const target = join(upper, rel);
          chownSync(target, st.uid, st.gid);
          chmodSync(target, st.mode & 0o7777);
          utimesSync(target, st.atime, st.mtime);
        }
      }),
    );
  } finally {
    await sn.remove(viewKey);
  }
}

// lstat of root/rel that never follows a symlink on the way: a parent component that is not a
// directory means there is nothing at rel to merge with, so the answer is undefined.
function lstatBeneath(root: string, rel: string): Stats | undefined {
  const parts = rel.split('/').filter((p) => p !== '');
  let path = root;
  for (let i = 0; i < parts.length; i++) {
    path = join(path, parts[i] as string);
    let st: Stats;
    try {
      st = lstatSync(path);
    } catch (err) {
      if (errnoCode(err) === 'ENOENT') return undefined;
      throw err;
    }
    if (i < parts.length - 1 && !st.isDirectory()) return undefined;
    if (i === parts.length - 1) return st;
  }
  return lstatSync(root);
}

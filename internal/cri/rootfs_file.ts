// Reads a small file (an image's /etc/passwd or /etc/group) out of a snapshot's mounts without
// mounting anything: overlay layers are plain directories, searched top-down as the kernel would.
// containerd mounts the snapshot in a temp dir for this; reading the layers directly is cheaper
// and leaves nothing to unmount if berthd dies halfway.
import { lstatSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import type { Mount } from '../mount/types';

const MAX_BYTES = 4 << 20;

/** The directories of a rootfs, topmost first. */
export function layerDirs(mounts: readonly Mount[]): string[] {
  if (mounts.length !== 1) return [];
  const [m] = mounts;
  if (m.type === 'bind' || m.type === 'rbind') return [m.source];
  if (m.type !== 'overlay') return [];
  const dirs: string[] = [];
  const option = (name: string) => m.options.find((o) => o.startsWith(name + '='))?.slice(name.length + 1);
  const upper = option('upperdir');
  if (upper) dirs.push(upper);
  const lower = option('lowerdir');
  if (lower) dirs.push(...lower.split(':'));
  return dirs;
}

/**
 * The content of `pathInImage` as the merged view would show it, or undefined when absent.
 * Symlinks inside the image are not followed (passwd and group are regular files in practice);
 * a whiteout (0/0 char device) ends the search as in overlayfs. Opaque directories are not
 * consulted: a file missing from an opaque dir but present below would be read (rare in images).
 */
export function readRootfsFile(mounts: readonly Mount[], pathInImage: string): string | undefined {
  const rel = posix.normalize('/' + pathInImage).slice(1);
  for (const dir of layerDirs(mounts)) {
    const full = join(dir, rel);
    let st;
    try {
      st = lstatSync(full);
    } catch {
      continue;
    }
    if (st.isCharacterDevice() && st.rdev === 0) return undefined; // whiteout
    if (!st.isFile() || st.size > MAX_BYTES) return undefined;
    return readFileSync(full, 'utf8');
  }
  return undefined;
}

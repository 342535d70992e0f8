// Reads a small file (an image's /etc/passwd or /etc/group) out of a snapshot's mounts without
// mounting anything: overlay layers are plain directories, merged top-down as the kernel would,
// every path resolved inside them (internal/fs/root_path.ts), never through the host.
// containerd mounts the snapshot in a temp dir for this; reading the layers directly is cheaper
// and leaves nothing to unmount if berthd dies halfway.
import { BerthError, wrap } from '../errdefs/errors';
import { readRegularFile } from '../fs/read_regular';
import { resolveInLayers, resolveInRoot } from '../fs/root_path';
import type { Mount } from '../mount/types';

/** containerd's maxUserFileBytes: passwd and group files are far smaller in real images. */
const MAX_BYTES = 10 << 20;

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
 * The content of `pathInImage` as the container will see it, or undefined when absent. Symlinks
 * are followed inside the rootfs only (an absolute or ".." target never reaches the host), over
 * the merged view of the overlay layers. Anything but a regular file of at most MAX_BYTES is an
 * InvalidArgument, as in containerd's openUserFile.
 */
export function readRootfsFile(mounts: readonly Mount[], pathInImage: string): string | undefined {
  const dirs = layerDirs(mounts);
  const overlay = mounts.length === 1 && mounts[0]!.type === 'overlay';
  try {
    const entry = overlay ? resolveInLayers(dirs, pathInImage) : dirs.length === 1 ? resolveInRoot(dirs[0]!, pathInImage) : undefined;
    if (entry === undefined) return undefined;
    return readRegularFile(entry, `the image's ${pathInImage}`, MAX_BYTES).toString('utf8');
  } catch (err) {
    // Our own refusals already name the file; a system error gets the context.
    throw err instanceof BerthError ? err : wrap(err, `reading the image's ${pathInImage}`);
  }
}

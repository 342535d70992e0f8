// Image-declared volumes seeded as containerd's WithVolumes / copyExistingContents do: each volume's
// host directory (empty, made for its bind mount) gets a copy of what the image has at that path,
// with owners, modes, xattrs and links, so a non-root image can still write its VOLUME and finds the
// files it ships there. The image is read from the container's snapshot layers without mounting
// them (like rootfs_file.ts): the volume path is resolved inside the rootfs, symlinks followed only
// within it, and nothing under it is followed at all (internal/fs/copy_view.ts).
import { invalidArgument, wrap } from '../errdefs/errors';
import { copyViewInto, type CopyLimits } from '../fs/copy_view';
import { resolveDirView } from '../fs/root_path';
import type { Mount } from '../mount/types';
import { layerDirs } from './rootfs_file';

export interface ImageVolume {
  /** The VOLUME path in the image (cleaned, absolute). */
  containerPath: string;
  /** Its backing directory on the host, already created, empty. */
  hostPath: string;
}

/** containerd copies every xattr but this one (fs.WithXAttrExclude). */
const SKIPPED_XATTRS = new Set(['security.selinux']);

/**
 * Copies the image's content at each volume path into the volume's host directory. A path the
 * image lacks leaves its directory empty (root-owned 0755, as containerd); a path that is not a
 * directory in the image is an InvalidArgument. On failure the caller removes the directories.
 */
export async function seedImageVolumes(rootfs: readonly Mount[], volumes: readonly ImageVolume[], limits?: CopyLimits): Promise<void> {
  if (volumes.length === 0) return;
  const dirs = layerDirs(rootfs);
  if (dirs.length === 0) throw invalidArgument(`cannot read the container's rootfs (${rootfs.map((m) => m.type).join(', ')}) to seed its image volumes`);
  const overlay = rootfs[0]!.type === 'overlay';
  for (const volume of volumes) {
    try {
      const view = resolveDirView(dirs, volume.containerPath, overlay);
      if (view === undefined) continue;
      if (view === null) throw invalidArgument('it is not a directory in the image');
      await copyViewInto(view, volume.hostPath, { overlay, limits, skipXattr: (name) => SKIPPED_XATTRS.has(name) });
    } catch (err) {
      throw wrap(err, `image volume ${volume.containerPath}`);
    }
  }
}

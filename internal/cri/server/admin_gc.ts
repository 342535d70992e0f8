// Admin/GarbageCollect (`berthctl gc`): removes the content blobs and the committed image snapshots
// that no recorded image references — what an interrupted pull or import, or an image removed
// while a container still sat on its layers, leaves behind. The same collectors RemoveImage runs.
import type { GarbageCollectRequest__Output } from '../../api/gen/berth/admin/v1/GarbageCollectRequest';
import type { GarbageCollectResponse } from '../../api/gen/berth/admin/v1/GarbageCollectResponse';
import { collectImageSnapshots } from '../snapshot_gc';
import { forgetImageFsUsage } from './image_fs_info';
import type { CriService } from './service';

export async function garbageCollect(svc: CriService, _req: GarbageCollectRequest__Output): Promise<GarbageCollectResponse> {
  const rt = svc.rt;
  const logger = svc.logger.with({ component: 'gc' });
  // Sizes first: a removed blob can no longer be asked its size.
  const sizes = new Map<string, number>();
  for await (const blob of rt.content.walk()) sizes.set(blob.digest, blob.size);
  try {
    const removedBlobs = await rt.images.gc();
    const removedSnapshots = await collectImageSnapshots(rt.snapshotter, rt.images, logger);
    const reclaimed = removedBlobs.reduce((sum, digest) => sum + (sizes.get(digest) ?? 0), 0);
    logger.info('garbage collected', { blobs: removedBlobs.length, snapshots: removedSnapshots.length, bytes: reclaimed });
    return { removed_blobs: removedBlobs.sort(), removed_snapshots: removedSnapshots, reclaimed_bytes: String(reclaimed) };
  } finally {
    forgetImageFsUsage(rt);
  }
}

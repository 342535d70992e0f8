// RemoveImage: removes every name of the image a reference, ID or digest reference names, then
// the blobs (ImageService.remove's GC) and the committed layer snapshots no other image and no
// container needs. Removing an absent image succeeds, as the CRI requires.
import type { RemoveImageRequest__Output } from '../../api/gen/runtime/v1/RemoveImageRequest';
import type { RemoveImageResponse } from '../../api/gen/runtime/v1/RemoveImageResponse';
import { wrap } from '../../errdefs/errors';
import { collectImageSnapshots } from '../snapshot_gc';
import { forgetImageFsUsage } from './image_fs_info';
import type { CriService } from './service';

export async function removeImage(svc: CriService, req: RemoveImageRequest__Output): Promise<RemoveImageResponse> {
  const rt = svc.rt;
  const ref = req.image?.image ?? '';
  try {
    const names = await rt.images.remove(ref);
    if (names.length > 0) svc.logger.info('removed image', { image: ref, names });
    // Also when the image is already gone: a retry after a failed (or interrupted) snapshot GC
    // finds no names left, and must still collect the snapshots the removal orphaned.
    await collectImageSnapshots(rt.snapshotter, rt.images, svc.logger.with({ component: 'snapshot-gc' }));
    return {};
  } catch (err) {
    throw wrap(err, `remove image ${JSON.stringify(ref)}`);
  } finally {
    forgetImageFsUsage(rt);
  }
}

// ListImages: every image (one per ID, with all its names), or with filter.image.image only the
// image that reference or ID names (none when it names nothing).
import type { ListImagesRequest__Output } from '../../api/gen/runtime/v1/ListImagesRequest';
import type { ListImagesResponse } from '../../api/gen/runtime/v1/ListImagesResponse';
import { criApiImage, findImage, pinnedImageId } from './image_status';
import type { CriService } from './service';

export async function listImages(svc: CriService, req: ListImagesRequest__Output): Promise<ListImagesResponse> {
  const { images } = svc.rt;
  const pinned = pinnedImageId(svc);
  const wanted = req.filter?.image?.image ?? '';
  if (wanted !== '') {
    const image = await findImage(images, wanted);
    return { images: image ? [criApiImage(image, pinned)] : [] };
  }
  return { images: (await images.list()).map((image) => criApiImage(image, pinned)) };
}

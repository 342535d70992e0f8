// ImageStatus: one image as the CRI describes it, or `image: null` when it is absent (the CRI
// wants "not present" as an empty answer, not an error). `verbose` adds containerd's info blob:
// {"chainID": <top chain ID>, "imageSpec": <the OCI image config>}.
import type { Image } from '../../api/gen/runtime/v1/Image';
import type { ImageStatusRequest__Output } from '../../api/gen/runtime/v1/ImageStatusRequest';
import type { ImageStatusResponse } from '../../api/gen/runtime/v1/ImageStatusResponse';
import { isNotFound } from '../../errdefs/errors';
import type { CriImage } from '../../images/cri_view';
import type { ImageService } from '../../images/service';
import { topChainId } from '../image_unpack';
import type { CriService } from './service';

/**
 * The image ID of the configured sandbox (pause) image, when it is present: kubelet's image GC
 * must never remove it (containerd marks it with its pinned label).
 */
export function pinnedImageId(svc: CriService): string | undefined {
  try {
    return svc.rt.images.resolveId(svc.config.cri.sandbox_image);
  } catch {
    return undefined;
  }
}

/** The wire form of an image. */
export function criApiImage(image: CriImage, pinnedId: string | undefined): Image {
  return {
    id: image.id,
    repo_tags: image.repoTags,
    repo_digests: image.repoDigests,
    size: String(image.size),
    uid: image.uid === undefined ? null : { value: String(image.uid) },
    username: image.username,
    spec: { image: image.id, annotations: {} },
    pinned: image.id === pinnedId,
  };
}

/** The image `refOrId` names, or undefined when there is none. */
export async function findImage(images: ImageService, refOrId: string): Promise<CriImage | undefined> {
  try {
    return await images.get(refOrId);
  } catch (err) {
    if (isNotFound(err)) return undefined;
    throw err;
  }
}

async function verboseInfo(svc: CriService, image: CriImage): Promise<Record<string, string>> {
  const resolved = await svc.rt.images.resolve(image.id);
  const imageSpec: unknown = JSON.parse((await svc.rt.content.readBytes(resolved.configDesc.digest)).toString('utf8'));
  return { info: JSON.stringify({ chainID: topChainId(resolved), imageSpec }) };
}

export async function imageStatus(svc: CriService, req: ImageStatusRequest__Output): Promise<ImageStatusResponse> {
  const image = await findImage(svc.rt.images, req.image?.image ?? '');
  if (image === undefined) return { image: null, info: {} };
  const info = req.verbose ? await verboseInfo(svc, image) : {};
  return { image: criApiImage(image, pinnedImageId(svc)), info };
}

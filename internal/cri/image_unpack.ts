// Unpacking an image into committed snapshots: the bridge between the images layer (which knows
// manifests and blobs) and rootfs/snapshots (which know only layers and chain IDs).
import type { ContentStore } from '../content/types';
import { failedPrecondition } from '../errdefs/errors';
import type { UnpackRequest } from '../images/import';
import type { ResolvedImage } from '../images/walk';
import type { Logger } from '../log/logger';
import { applyLayers, chainIDs, type Layer } from '../rootfs';
import type { Snapshotter } from '../snapshots/types';

/** The image's layers; each opens once its blob is stored (see UnpackRequest.layerReady). */
export function imageLayers(content: ContentStore, image: ResolvedImage & Pick<UnpackRequest, 'layerReady'>): Layer[] {
  const { diffIds } = image.config;
  if (diffIds.length !== image.layers.length) {
    throw failedPrecondition(
      `image config ${image.configDesc.digest} lists ${diffIds.length} diff IDs for ${image.layers.length} layers`,
    );
  }
  return image.layers.map((descriptor, i) => ({
    diffID: diffIds[i],
    descriptor,
    open: async () => {
      await image.layerReady?.(i);
      return content.readStream(descriptor.digest);
    },
  }));
}

/** The chain ID of the image's top layer: the parent of every container snapshot of this image. */
export function topChainId(image: ResolvedImage): string {
  const ids = chainIDs(image.config.diffIds);
  if (ids.length === 0) throw failedPrecondition(`image ${image.configDesc.digest} has no layers`);
  return ids[ids.length - 1];
}

/** Unpacks (or finds already unpacked) every layer; resolves to the top chain ID. */
export function unpackImage(
  snapshotter: Snapshotter,
  content: ContentStore,
  image: ResolvedImage & Pick<UnpackRequest, 'layerReady'>,
  logger?: Logger,
): Promise<string> {
  return applyLayers(snapshotter, imageLayers(content, image), { logger });
}

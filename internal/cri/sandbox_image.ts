// Images as CRI calls resolve them: the pause image (resolved locally, pulled and unpacked when
// missing, as containerd's RunPodSandbox does with sandbox_image) and a container's image.
import { isNotFound } from '../errdefs/errors';
import type { ResolvedImage } from '../images/walk';
import { unpackImage } from './image_unpack';
import type { RuntimeDeps } from './server/service';

export interface LocalImage {
  id: string;
  name: string;
  resolved: ResolvedImage;
  /** Top chain ID: the parent of a container's snapshot. */
  chainId: string;
}

/** Resolves an image already known locally and makes sure its layers are unpacked. */
export async function localImage(rt: RuntimeDeps, ref: string): Promise<LocalImage> {
  const id = rt.images.resolveId(ref);
  const resolved = await rt.images.resolve(id);
  const chainId = await unpackImage(rt.snapshotter, rt.content, resolved);
  return { id, name: ref, resolved, chainId };
}

/** The image, pulled when missing; a pull ends when `signal` aborts (the caller went away), unless another caller waits for it too. */
export async function ensureImage(rt: RuntimeDeps, ref: string, signal?: AbortSignal): Promise<LocalImage> {
  try {
    return await localImage(rt, ref);
  } catch (err) {
    if (!isNotFound(err)) throw err;
  }
  await rt.images.pull(ref, {
    unpack: async () => undefined, // unpacked below through the same per-chain locks
    signal,
  });
  return localImage(rt, ref);
}

/**
 * The image's name as containerd writes it into a container's image-name annotation (its CRI
 * image's first reference): the first tag, else the first digest reference, else the ID.
 * Kubelets before 1.29 create containers by image ID.
 */
export async function imageNameOf(rt: RuntimeDeps, id: string): Promise<string> {
  const image = await rt.images.get(id);
  return image.repoTags[0] ?? image.repoDigests[0] ?? id;
}

// PullImage: fetch an image from its registry with the caller's credentials, unpack its layers
// into committed snapshots, record it, and answer its ID (the config digest) as containerd does.
// sandbox_config is ignored (it only matters to runtimes that pull per pod).
import type { AuthConfig__Output } from '../../api/gen/runtime/v1/AuthConfig';
import type { PullImageRequest__Output } from '../../api/gen/runtime/v1/PullImageRequest';
import type { PullImageResponse } from '../../api/gen/runtime/v1/PullImageResponse';
import type { UnpackFn } from '../../images/import';
import type { AuthConfig } from '../../images/pull/auth';
import { formatReference, parseReference, repositoryOf } from '../../images/reference';
import { imageSize } from '../../images/walk';
import { metrics, stopwatch } from '../../metrics';
import { gatedUnpack } from '../snapshot_gc';
import { forgetImageFsUsage } from './image_fs_info';
import type { CriService } from './service';
import { callSignal, type CallEnd } from '../util/call_signal';

/** The CRI's AuthConfig with proto3's empty strings turned into absent fields. */
export function pullAuth(auth: AuthConfig__Output | null): AuthConfig | undefined {
  if (!auth) return undefined;
  const out: AuthConfig = {};
  if (auth.username !== '') out.username = auth.username;
  if (auth.password !== '') out.password = auth.password;
  if (auth.auth !== '') out.auth = auth.auth;
  if (auth.identity_token !== '') out.identity_token = auth.identity_token;
  if (auth.registry_token !== '') out.registry_token = auth.registry_token;
  if (auth.server_address !== '') out.server_address = auth.server_address;
  return Object.keys(out).length > 0 ? out : undefined;
}

export async function pullImage(svc: CriService, req: PullImageRequest__Output, call: CallEnd): Promise<PullImageResponse> {
  const elapsed = stopwatch();
  try {
    // A client that gives up stops the download, unless another pull of the same image or a
    // layer it shares waits for it too.
    const { imageRef, bytes } = await pullAndRecord(svc, req, callSignal(call));
    metrics().imagePull(true, elapsed(), bytes);
    return { image_ref: imageRef };
  } catch (err) {
    metrics().imagePull(false, elapsed(), 0);
    throw err;
  }
}

async function pullAndRecord(svc: CriService, req: PullImageRequest__Output, signal: AbortSignal): Promise<{ imageRef: string; bytes: number }> {
  const rt = svc.rt;
  const reference = req.image?.image ?? '';
  const ref = parseReference(reference); // InvalidArgument naming the reference
  const name = formatReference(ref);
  const logger = svc.logger.with({ image: name });
  const gated = gatedUnpack(rt.snapshotter, rt.content, rt.images, logger);
  const unpack: UnpackFn = async (image) => {
    const unpacking = stopwatch();
    await gated.unpack(image);
    metrics().imageUnpack(unpacking());
  };
  let pulled = false;
  try {
    const record = await rt.images.pull(name, { auth: pullAuth(req.auth), unpack, signal });
    // Also record the repo digest, as containerd's CRI does, so the image resolves by
    // "<repository>@<manifest digest>" after a pull by tag.
    const repoDigest = `${repositoryOf(ref)}@${record.target.digest}`;
    if (repoDigest !== record.name) {
      rt.images.store.put({ name: repoDigest, target: record.target, configDigest: record.configDigest, labels: record.labels });
    }
    logger.info('image pulled', { id: record.configDigest, target: record.target.digest });
    pulled = true;
    return { imageRef: record.configDigest, bytes: imageSize(await rt.images.resolve(record.configDigest)) };
  } finally {
    // After a failure, the layers it committed are named by no image: collected, not left to the next RemoveImage.
    gated.release(pulled);
    forgetImageFsUsage(rt);
  }
}

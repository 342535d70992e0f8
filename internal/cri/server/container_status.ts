// ContainerStatus: state derived from the stored timestamps; image shown as containerd does (first
// repo tag, first repo digest as image_ref); the user and resources read from the container's
// current spec (containerd 2.0); `verbose` adds what crictl inspect shows.
import type { ContainerStatusRequest__Output } from '../../api/gen/runtime/v1/ContainerStatusRequest';
import type { ContainerStatusResponse } from '../../api/gen/runtime/v1/ContainerStatusResponse';
import type { ContainerStatus } from '../../api/gen/runtime/v1/ContainerStatus';
import type { Spec } from '../../oci/spec';
import { containerResourcesOf, containerUserOf } from '../opts/spec_status';
import { containerState, type Container } from '../store/container';
import type { CriService } from './service';

export interface ImageDisplay {
  image: string;
  imageRef: string;
}

/** How a container's image is shown: a repo tag and repo digest when the image is still known. */
export async function imageDisplay(svc: CriService, container: Container): Promise<ImageDisplay> {
  const { imageRef, imageId, config } = container.metadata;
  try {
    const image = await svc.rt.images.get(imageId);
    return { image: image.repoTags[0] ?? config.image?.image ?? imageRef, imageRef: image.repoDigests[0] ?? imageId };
  } catch {
    return { image: config.image?.image ?? imageRef, imageRef: imageId };
  }
}

export function toCriContainerStatus(container: Container, display: ImageDisplay): ContainerStatus {
  const { metadata: m, status: s } = container;
  const spec = container.spec as Spec;
  return {
    id: container.id,
    metadata: m.config.metadata,
    state: containerState(s),
    created_at: s.createdAt,
    started_at: s.startedAt,
    finished_at: s.finishedAt,
    exit_code: s.exitCode,
    image: { image: display.image, annotations: {} },
    image_ref: display.imageRef,
    image_id: m.imageId,
    reason: s.reason,
    message: s.message,
    labels: m.config.labels,
    annotations: m.config.annotations,
    mounts: m.config.mounts,
    log_path: m.logPath,
    resources: containerResourcesOf(spec),
    user: containerUserOf(spec),
  };
}

export async function containerStatus(
  svc: CriService,
  req: ContainerStatusRequest__Output,
): Promise<ContainerStatusResponse> {
  const container = svc.rt.containers.get(req.container_id);
  const response: ContainerStatusResponse = {
    status: toCriContainerStatus(container, await imageDisplay(svc, container)),
    info: {},
  };
  if (req.verbose) {
    const m = container.metadata;
    response.info = {
      info: JSON.stringify({
        sandboxID: m.sandboxId,
        pid: container.status.pid,
        removing: container.removing,
        snapshotKey: m.snapshotKey,
        snapshotter: 'overlayfs',
        runtimeHandler: m.runtimeHandler,
        runtimeType: m.runtimeType,
        config: m.config,
        runtimeSpec: container.spec,
      }),
    };
  }
  return response;
}

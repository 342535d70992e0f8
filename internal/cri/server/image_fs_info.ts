// ImageFsInfo: how much disk the image filesystem uses — every snapshot's own directory under
// <root>/overlayfs plus the content store's blobs. kubelet asks often (image GC, eviction), and
// the walk reads every inode, so the figure is cached for a few seconds and recomputed at once
// after a pull, an import or a removal.
import { join } from 'node:path';
import type { FilesystemUsage } from '../../api/gen/runtime/v1/FilesystemUsage';
import type { ImageFsInfoRequest__Output } from '../../api/gen/runtime/v1/ImageFsInfoRequest';
import type { ImageFsInfoResponse } from '../../api/gen/runtime/v1/ImageFsInfoResponse';
import type { ContentStore } from '../../content/types';
import { isNotFound } from '../../errdefs/errors';
import type { Snapshotter } from '../../snapshots/types';
import type { CriService, RuntimeDeps } from './service';

const CACHE_MS = 5_000;

interface FsFigure {
  /** When the figure was taken, ms since the epoch. */
  at: number;
  usedBytes: number;
  inodesUsed: number;
}

const cache = new WeakMap<RuntimeDeps, Promise<FsFigure>>();

/** Drops the cached figure, so the next ImageFsInfo measures again (after pull, import, remove). */
export function forgetImageFsUsage(rt: RuntimeDeps): void {
  cache.delete(rt);
}

async function measure(sn: Snapshotter, content: ContentStore): Promise<FsFigure> {
  const at = Date.now();
  let usedBytes = 0;
  let inodesUsed = 0;
  const keys: string[] = [];
  await sn.walk((info) => {
    keys.push(info.name);
  });
  for (const key of keys) {
    try {
      const usage = await sn.usage(key);
      usedBytes += usage.size;
      inodesUsed += usage.inodes;
    } catch (err) {
      if (!isNotFound(err)) throw err; // removed since the walk
    }
  }
  for await (const blob of content.walk()) {
    usedBytes += blob.size;
    inodesUsed += 1;
  }
  return { at, usedBytes, inodesUsed };
}

function figureFor(rt: RuntimeDeps): Promise<FsFigure> {
  const cached = cache.get(rt);
  if (cached) return cached;
  const p = measure(rt.snapshotter, rt.content);
  cache.set(rt, p);
  const expire = () => {
    setTimeout(() => {
      if (cache.get(rt) === p) cache.delete(rt);
    }, CACHE_MS).unref();
  };
  p.then(expire, () => {
    if (cache.get(rt) === p) cache.delete(rt);
  });
  return p;
}

export async function imageFsInfo(svc: CriService, _req: ImageFsInfoRequest__Output): Promise<ImageFsInfoResponse> {
  const figure = await figureFor(svc.rt);
  const usage: FilesystemUsage = {
    timestamp: String(BigInt(figure.at) * 1_000_000n),
    fs_id: { mountpoint: join(svc.config.root, 'overlayfs') },
    used_bytes: { value: String(figure.usedBytes) },
    inodes_used: { value: String(figure.inodesUsed) },
  };
  // containerd 1.6 reports its one snapshotter mount for both: container layers live there too.
  return { image_filesystems: [usage], container_filesystems: [{ ...usage }] };
}

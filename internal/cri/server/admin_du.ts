// Admin/DiskUsage (`berthctl du`): the space berthd's data takes, by kind — content blobs (what
// images were pulled or imported as), committed snapshots (unpacked layers), active snapshots
// (writable layers of containers and pod sandboxes) and containers' current CRI log files — plus
// each container's own share. Snapshot sizes are measured as ImageFsInfo measures them.
import { stat } from 'node:fs/promises';
import type { ContainerDiskUsage } from '../../api/gen/berth/admin/v1/ContainerDiskUsage';
import type { DiskUsageRequest__Output } from '../../api/gen/berth/admin/v1/DiskUsageRequest';
import type { DiskUsageResponse } from '../../api/gen/berth/admin/v1/DiskUsageResponse';
import { isNotFound } from '../../errdefs/errors';
import type { Kind } from '../../snapshots/types';
import { errnoCode } from '../../sys/fs';
import type { CriService } from './service';

class Tally {
  count = 0;
  bytes = 0;
  add(bytes: number): void {
    this.count++;
    this.bytes += bytes;
  }
  toProto() {
    return { count: String(this.count), bytes: String(this.bytes) };
  }
}

/** Size of a log file; undefined when there is none (never written, or removed). */
async function fileSize(path: string): Promise<number | undefined> {
  if (path === '') return undefined;
  try {
    const st = await stat(path);
    return st.isFile() ? st.blocks * 512 : undefined;
  } catch (err) {
    if (errnoCode(err) === 'ENOENT' || errnoCode(err) === 'ENOTDIR') return undefined;
    throw err;
  }
}

export async function diskUsage(svc: CriService, _req: DiskUsageRequest__Output): Promise<DiskUsageResponse> {
  const rt = svc.rt;
  const images = new Tally();
  for await (const blob of rt.content.walk()) images.add(blob.size);

  const kinds = new Map<string, Kind>();
  await rt.snapshotter.walk((info) => {
    kinds.set(info.name, info.kind);
  });
  const snapshots = new Tally();
  const writable = new Tally();
  const bytesOf = new Map<string, number>();
  for (const [name, kind] of kinds) {
    let size: number;
    try {
      size = (await rt.snapshotter.usage(name)).size;
    } catch (err) {
      if (isNotFound(err)) continue; // removed since the walk
      throw err;
    }
    bytesOf.set(name, size);
    (kind === 'active' ? writable : snapshots).add(size);
  }

  const logs = new Tally();
  const containers: ContainerDiskUsage[] = [];
  for (const c of rt.containers.list()) {
    const m = c.metadata;
    const logBytes = await fileSize(m.logPath);
    if (logBytes !== undefined) logs.add(logBytes);
    containers.push({
      id: m.id,
      name: m.config.metadata?.name ?? m.name, // what the user named it, as ps shows it
      pod_sandbox_id: m.sandboxId,
      writable_layer_bytes: String(bytesOf.get(m.snapshotKey) ?? 0),
      log_bytes: String(logBytes ?? 0),
    });
  }
  containers.sort((a, b) => (a.id! < b.id! ? -1 : 1));
  return {
    images: images.toProto(),
    snapshots: snapshots.toProto(),
    writable_layers: writable.toProto(),
    logs: logs.toProto(),
    containers,
  };
}

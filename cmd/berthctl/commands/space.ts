// berthctl gc | du: berth.admin.v1 GarbageCollect and DiskUsage.
import type { DaemonClient } from '../client';
import { slow } from '../client_run';
import { humanSize, truncateId } from '../humanize';
import { outputFormat, printStructured, table, write } from '../output';

export interface SpaceOptions {
  output: string;
  verbose?: boolean;
}

export async function garbageCollect(c: DaemonClient, opts: SpaceOptions): Promise<void> {
  const format = outputFormat(opts.output, ['json', 'yaml', 'table']);
  const r = await c.admin.GarbageCollect({}, slow());
  if (format !== 'table') {
    printStructured({ removedBlobs: r.removed_blobs, removedSnapshots: r.removed_snapshots, reclaimedBytes: r.reclaimed_bytes }, format);
    return;
  }
  if (opts.verbose) {
    for (const blob of r.removed_blobs) write(`Deleted blob: ${blob}`);
    for (const snapshot of r.removed_snapshots) write(`Deleted snapshot: ${snapshot}`);
  }
  write(`Removed ${r.removed_blobs.length} blobs and ${r.removed_snapshots.length} snapshots, reclaimed ${humanSize(Number(r.reclaimed_bytes))}`);
}

export async function diskUsage(c: DaemonClient, opts: SpaceOptions): Promise<void> {
  const format = outputFormat(opts.output, ['json', 'yaml', 'table']);
  const r = await c.admin.DiskUsage({}, slow());
  if (format !== 'table') {
    const usage = (u: { count: string; bytes: string } | null) => ({ count: u?.count ?? '0', bytes: u?.bytes ?? '0' });
    printStructured(
      {
        images: usage(r.images),
        snapshots: usage(r.snapshots),
        writableLayers: usage(r.writable_layers),
        logs: usage(r.logs),
        containers: r.containers.map((ct) => ({
          id: ct.id,
          name: ct.name,
          podSandboxId: ct.pod_sandbox_id,
          writableLayerBytes: ct.writable_layer_bytes,
          logBytes: ct.log_bytes,
        })),
      },
      format,
    );
    return;
  }
  const rows = [['TYPE', 'COUNT', 'SIZE']];
  const add = (label: string, u: { count: string; bytes: string } | null) => rows.push([label, u?.count ?? '0', humanSize(Number(u?.bytes ?? 0))]);
  add('Images (content)', r.images);
  add('Snapshots (layers)', r.snapshots);
  add('Writable layers', r.writable_layers);
  add('Container logs', r.logs);
  let out = table(rows);
  if (opts.verbose && r.containers.length > 0) {
    const perContainer = [['CONTAINER', 'NAME', 'POD ID', 'WRITABLE', 'LOGS']];
    for (const ct of r.containers) {
      perContainer.push([truncateId(ct.id), ct.name, truncateId(ct.pod_sandbox_id), humanSize(Number(ct.writable_layer_bytes)), humanSize(Number(ct.log_bytes))]);
    }
    out += `\n${table(perContainer)}`;
  }
  process.stdout.write(out);
}

// The Mounts an overlay snapshot is used through, as data (containerd overlay.go mounts()).
import { readFileSync } from 'node:fs';
import type { Mount } from '../../mount/types';
import type { Kind } from '../types';

export interface SnapshotPaths {
  upper(id: number): string; // <root>/snapshots/<id>/fs
  work(id: number): string; // <root>/snapshots/<id>/work
}

/** True when the overlay module indexes by default; we then turn it off as containerd does. */
export function overlayIndexOn(): boolean {
  try {
    return readFileSync('/sys/module/overlay/parameters/index', 'utf8').trim() === 'Y';
  } catch {
    return false;
  }
}

/**
 * - no parent: a bind of the snapshot's own fs (read-only for a view);
 * - a view of one committed parent: a read-only bind of the parent's fs;
 * - otherwise overlay, lowerdir nearest parent first, plus upperdir/workdir for an active one.
 */
export function mountsFor(kind: Kind, id: number, parentIds: readonly number[], paths: SnapshotPaths, indexOff: boolean): Mount[] {
  if (parentIds.length === 0) {
    return [{ type: 'bind', source: paths.upper(id), options: [kind === 'view' ? 'ro' : 'rw', 'rbind'] }];
  }
  if (kind === 'view' && parentIds.length === 1) {
    return [{ type: 'bind', source: paths.upper(parentIds[0] as number), options: ['ro', 'rbind'] }];
  }
  const options: string[] = [];
  if (indexOff) options.push('index=off');
  if (kind === 'active') options.push(`workdir=${paths.work(id)}`, `upperdir=${paths.upper(id)}`);
  options.push(`lowerdir=${parentIds.map((p) => paths.upper(p)).join(':')}`);
  return [{ type: 'overlay', source: 'overlay', options }];
}

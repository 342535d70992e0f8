// Committed snapshots whose directory is gone (a partial restore, fsck's lost+found, an operator's
// rm). Each is a layer named by its chain ID, and an unpack skips a chain ID whose row exists, so
// the row alone would make every re-import or re-pull answer OK and every container on the image
// fail at mount with ENOENT. What the start does about them is planned here, from the rows alone.
import type { SnapshotRow } from './store';

/** A snapshot moved off its chain ID has this prefix; no chain ID ("sha256:...") has it. */
export const BROKEN_PREFIX = 'broken-';

export interface MissingLayerPlan {
  /** Committed snapshots whose own directory is missing. */
  missing: SnapshotRow[];
  /** Committed snapshots at or above a missing one that nothing else stands on: their rows go, descendants first. */
  remove: SnapshotRow[];
  /**
   * Committed snapshots at or above a missing one that an active or view snapshot (a container's
   * or pod's rootfs) stands on: renamed off their chain ID (brokenKey), so an unpack makes the layer
   * again while the container keeps its record and its snapshot's parent chain.
   */
  rename: SnapshotRow[];
}

/** The name a broken committed snapshot is kept under; its id keeps it unique, and one already renamed keeps its name. */
export function brokenKey(row: SnapshotRow): string {
  return row.key.startsWith(BROKEN_PREFIX) ? row.key : `${BROKEN_PREFIX}${row.id}-${row.key}`;
}

/**
 * Every committed snapshot above a missing one has the missing directory in its overlay lowerdir
 * stack, so it is as unusable: all of them leave their chain IDs. Their rows are deleted unless an
 * active or view snapshot stands on them; those are renamed instead, never deleted, because
 * deleting a container's rootfs (or the parent chain its record points at) behind its back would
 * lose the container, which must stay listed until the kubelet removes it. Once nothing stands on a
 * renamed snapshot, the image snapshot GC (no image names it) or the next start removes it.
 */
export function planMissingLayers(rows: readonly SnapshotRow[], hasDir: (row: SnapshotRow) => boolean): MissingLayerPlan {
  const children = new Map<string, SnapshotRow[]>();
  for (const row of rows) {
    if (row.parent === null) continue;
    const list = children.get(row.parent);
    if (list) list.push(row);
    else children.set(row.parent, [row]);
  }
  const childrenOf = (row: SnapshotRow) => children.get(row.key) ?? [];

  const missing = rows.filter((row) => row.kind === 'committed' && !hasDir(row));
  const plan: MissingLayerPlan = { missing, remove: [], rename: [] };
  const seen = new Set<string>();
  // Post-order: a snapshot's descendants are planned (and listed for removal) before it.
  const visit = (row: SnapshotRow): boolean => {
    let held = false;
    for (const child of childrenOf(row)) {
      if (child.kind !== 'committed') held = true;
      else if (seen.has(child.key)) held ||= plan.rename.includes(child);
      else held = visit(child) || held;
    }
    seen.add(row.key);
    if (held) plan.rename.push(row);
    else plan.remove.push(row);
    return held;
  };
  for (const row of missing) if (!seen.has(row.key)) visit(row);
  return plan;
}

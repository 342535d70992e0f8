// Test cgroups seen from the host, in every hierarchy (cgroup v1 hybrid: one dir per controller
// plus the unified one): a suite's cgroup parent, the per-task leaves runc makes under it, the
// processes in a leaf, and removal of the parent the suite made.
import { existsSync, readdirSync, readFileSync, rmdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const CGROUP_ROOT = '/sys/fs/cgroup';

/** `parent` in every cgroup hierarchy where it exists. */
export function cgroupDirs(parent: string): string[] {
  return readdirSync(CGROUP_ROOT)
    .map((h) => join(CGROUP_ROOT, h, parent))
    .filter((p) => existsSync(p) && statSync(p).isDirectory());
}

/** Leaf cgroups (one per task, named by its ID) under `parent`, in any hierarchy. */
export function leafCgroups(parent: string): string[] {
  return cgroupDirs(parent).flatMap((dir) =>
    readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => join(dir, e.name)),
  );
}

/** PIDs in a cgroup leaf (any hierarchy). */
export function cgroupPids(leaf: string): number[] {
  try {
    return readFileSync(join(leaf, 'cgroup.procs'), 'utf8')
      .split('\n')
      .filter((l) => l !== '')
      .map(Number);
  } catch {
    return [];
  }
}

/**
 * rmdir of a suite's cgroup parent (children first) in every hierarchy; runc removed the leaves
 * of the tasks it ran. `prefix` is the suite's naming ("/berth-ctr-"): anything else is refused.
 */
export function removeCgroupParent(parent: string, prefix: string): void {
  if (!new RegExp(`^${prefix}[0-9a-f]+$`).test(parent)) throw new Error(`refusing to remove cgroup ${parent}`);
  const removeTree = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) if (e.isDirectory()) removeTree(join(dir, e.name));
    rmdirSync(dir);
  };
  for (const dir of cgroupDirs(parent)) removeTree(dir);
}

// What a `runc create` killed half way leaves behind. When berthd dies while the shim runs runc
// create, the shim's ttRPC server cancels the request and runc is killed before it wrote its
// state.json: the shim never knew the container, `runc delete` finds nothing, and what remains is
// the container's (empty) cgroups and a runc state directory holding only exec.fifo. Recovery
// removes those for tasks it undoes; nothing that holds a process or a state.json is touched.
import { existsSync, readdirSync, rmdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { hostCgroupLayout } from '../stats/cgroup_layout';
import { resolveCgroupsPath } from '../stats/cgroup_path';

/** runc's state root when the runtime options name none (the runc shim's default). */
export const DEFAULT_RUNC_ROOT = '/run/containerd/runc';

export interface UnfinishedCreate {
  id: string;
  namespace: string;
  /** runc's --root as the shim used it (options Root, else DEFAULT_RUNC_ROOT). */
  runcRoot: string;
  /** The spec's linux.cgroupsPath ("" when it had none). */
  cgroupsPath: string;
  systemdCgroup: boolean;
}

/** Every directory the container's cgroup has on this host (one per v1 hierarchy, one on v2). */
function cgroupDirs(cgroupsPath: string, systemd: boolean): string[] {
  const relative = resolveCgroupsPath(cgroupsPath, systemd);
  const layout = hostCgroupLayout();
  if (layout.version === 2) return [join(layout.root, relative)];
  return layout.hierarchies.map((mountpoint) => join(mountpoint, relative));
}

/**
 * Removes what an interrupted runc create left; returns what it removed (for the log). The cgroups
 * go first: the state dir goes only when none of them is left, since a runc (or runc init) still
 * running would keep its cgroup busy and still need its state dir.
 */
export function removeUnfinishedCreate(c: UnfinishedCreate): string[] {
  const removed: string[] = [];
  let cgroupsGone = true;
  if (c.cgroupsPath !== '') {
    let dirs: string[] = [];
    try {
      dirs = cgroupDirs(c.cgroupsPath, c.systemdCgroup);
    } catch {
      // a cgroupsPath runc could not have used either
    }
    for (const dir of dirs) {
      if (!existsSync(dir)) continue;
      try {
        rmdirSync(dir); // fails (EBUSY) while a process is in it: then it is not ours to remove
        removed.push(dir);
      } catch {
        cgroupsGone = existsSync(dir) ? false : cgroupsGone;
      }
    }
  }
  if (!cgroupsGone) return removed;
  const stateDir = join(c.runcRoot, c.namespace, c.id);
  try {
    const entries = readdirSync(stateDir);
    if (!entries.includes('state.json') && entries.every((e) => e === 'exec.fifo')) {
      rmSync(stateDir, { recursive: true });
      removed.push(stateDir);
    }
  } catch {
    // no state dir: runc delete removed it, or create never got that far
  }
  return removed;
}

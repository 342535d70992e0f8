// The bench gives every pod a cgroup parent of its own ("/berth-bench-<run>/<peer>"); runc removes
// the leaf cgroups, and this removes the parents it leaves behind in every hierarchy (v1 + unified).
import { readdirSync, rmdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const CGROUP_ROOT = '/sys/fs/cgroup';

function hierarchies(): string[] {
  return readdirSync(CGROUP_ROOT)
    .map((name) => join(CGROUP_ROOT, name))
    .filter((path) => {
      try {
        return statSync(path).isDirectory();
      } catch {
        return false;
      }
    });
}

/** rmdir of a cgroup tree, children first; cgroup files are not removable and need not be. */
function removeTree(dir: string, failures: string[]): void {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return; // not there in this hierarchy
  }
  for (const entry of entries) if (entry.isDirectory()) removeTree(join(dir, entry.name), failures);
  try {
    rmdirSync(dir);
  } catch (err) {
    failures.push(`${dir}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
}

/** Removes `/<cgroupPath>` in every hierarchy; throws naming the dirs still busy. */
export function removeCgroupTree(cgroupPath: string): void {
  if (!/^\/berth-bench-[a-z0-9-]+$/.test(cgroupPath)) throw new Error(`refusing to remove cgroup ${cgroupPath}: not a bench cgroup`);
  const failures: string[] = [];
  for (const hierarchy of hierarchies()) removeTree(join(hierarchy, cgroupPath), failures);
  if (failures.length > 0) throw new Error(`cgroups still busy: ${failures.join(', ')}`);
}

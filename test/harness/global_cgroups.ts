// Jest global setup/teardown: pods created without a cgroup_parent go under /k8s.io in every
// hierarchy (containerd's fallback, which berth shares). Those parents are left empty when the
// suites end; remove the ones this run created, and only while empty (rmdir), so a runtime that
// uses them meanwhile keeps them.
import { existsSync, readdirSync, rmdirSync, writeFileSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const CGROUP_ROOT = '/sys/fs/cgroup';
const RECORD = join(tmpdir(), `berth-jest-k8s-cgroups-${process.ppid}.json`);

function fallbackParents(): string[] {
  if (!existsSync(CGROUP_ROOT)) return [];
  const direct = join(CGROUP_ROOT, 'k8s.io');
  const perHierarchy = readdirSync(CGROUP_ROOT).map((h) => join(CGROUP_ROOT, h, 'k8s.io'));
  return [direct, ...perHierarchy].filter((p) => existsSync(p));
}

export function recordExisting(): void {
  writeFileSync(RECORD, JSON.stringify(fallbackParents()));
}

export function removeCreated(): void {
  let before: string[] = [];
  try {
    before = JSON.parse(readFileSync(RECORD, 'utf8')) as string[];
  } catch {
    return; // no record: we cannot tell what was ours
  }
  rmSync(RECORD, { force: true });
  for (const dir of fallbackParents()) {
    if (before.includes(dir)) continue;
    try {
      rmdirSync(dir);
    } catch {
      // busy (a pod still uses it) or gone: not ours to force
    }
  }
}

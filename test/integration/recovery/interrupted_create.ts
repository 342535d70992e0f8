// What `runc create` leaves when it is killed before writing its state.json, made by hand for the
// one task whose bundle is there but not in `known`: its cgroup in every hierarchy and a runc state
// directory holding only exec.fifo. Returns the paths made.
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { hostCgroupLayout } from '../../../internal/cri/stats/cgroup_layout';
import { DEFAULT_RUNC_ROOT } from '../../../internal/cri/tasks/unfinished_create';
import { mkfifo } from '../../../internal/sys/fs';

export function plantInterruptedCreate(stateDir: string, known: string[]): string[] {
  const bundles = join(stateDir, 'io.containerd.runtime.v2.task', 'k8s.io');
  const ids = readdirSync(bundles).filter((id) => !known.includes(id));
  if (ids.length !== 1) throw new Error(`expected one unknown bundle in ${bundles}, found ${ids.join(', ') || 'none'}`);
  const id = ids[0]!;
  const spec = JSON.parse(readFileSync(join(bundles, id, 'config.json'), 'utf8')) as { linux?: { cgroupsPath?: string } };
  const cgroupsPath = spec.linux?.cgroupsPath;
  if (!cgroupsPath) throw new Error(`${id}: spec has no cgroupsPath`);
  const layout = hostCgroupLayout();
  const hierarchies = layout.version === 2 ? [layout.root] : layout.hierarchies;
  const planted = hierarchies.map((mountpoint) => join(mountpoint, cgroupsPath));
  for (const dir of planted) mkdirSync(dir, { recursive: true });
  const runcState = join(DEFAULT_RUNC_ROOT, 'k8s.io', id);
  mkdirSync(runcState, { recursive: true, mode: 0o711 });
  mkfifo(join(runcState, 'exec.fifo'), 0o622);
  return [...planted, runcState];
}

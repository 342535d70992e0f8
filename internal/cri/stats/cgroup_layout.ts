// Where the cgroup hierarchies are mounted, read once from /proc/self/mountinfo. v2 ("unified") when
// /sys/fs/cgroup itself is cgroup2, as runc decides; otherwise v1, with each controller found by the
// super options of its mount (so "cpu,cpuacct" mounted together works as well as apart). A hybrid
// host's /sys/fs/cgroup/unified holds no controllers runc uses, so it does not count as v2.
import { readFileSync } from 'node:fs';

export const CGROUP_ROOT = '/sys/fs/cgroup';

export type CgroupLayout =
  | {
      version: 1;
      /** controller name -> mountpoint */
      controllers: ReadonlyMap<string, string>;
      /** Every hierarchy runc also makes the container's cgroup in: the controllers', named ones
       * (name=systemd) and a hybrid host's cgroup2 at /sys/fs/cgroup/unified. */
      hierarchies: readonly string[];
    }
  | { version: 2; root: string };

/** Super options of a v1 cgroup mount that are not controller names (name=..., release_agent=... have '='). */
const NOT_CONTROLLERS = new Set(['rw', 'ro', 'none', 'noprefix', 'xattr', 'clone_children', 'cpuset_v2_mode', 'favordynmods']);

/** The "\040"-style escapes mountinfo uses for spaces and the like in paths. */
function unescapeMountPath(path: string): string {
  return path.replace(/\\([0-7]{3})/g, (_, oct: string) => String.fromCharCode(parseInt(oct, 8)));
}

/** Parses mountinfo text into a layout; exported for tests of other hosts' shapes. */
export function parseCgroupLayout(mountinfo: string): CgroupLayout {
  const controllers = new Map<string, string>();
  const hierarchies = new Set<string>();
  let v2Root: string | undefined;
  for (const line of mountinfo.split('\n')) {
    if (line === '') continue;
    const sep = line.indexOf(' - ');
    if (sep < 0) continue;
    const before = line.slice(0, sep).split(' ');
    const after = line.slice(sep + 3).split(' ');
    const mountpoint = unescapeMountPath(before[4] ?? '');
    const fstype = after[0];
    if (fstype === 'cgroup2' && mountpoint === CGROUP_ROOT) v2Root = mountpoint;
    if ((fstype === 'cgroup' || fstype === 'cgroup2') && mountpoint.startsWith(`${CGROUP_ROOT}/`)) hierarchies.add(mountpoint);
    if (fstype !== 'cgroup') continue;
    for (const opt of (after[2] ?? '').split(',')) {
      if (NOT_CONTROLLERS.has(opt) || opt.includes('=')) continue;
      // The first mount of a controller wins; bind mounts of it elsewhere come later.
      if (!controllers.has(opt)) controllers.set(opt, mountpoint);
    }
  }
  if (v2Root !== undefined) return { version: 2, root: v2Root };
  return { version: 1, controllers, hierarchies: [...hierarchies] };
}

let hostLayout: CgroupLayout | undefined;

/** This host's layout (mounts do not change under a running daemon, so it is read once). */
export function hostCgroupLayout(): CgroupLayout {
  hostLayout ??= parseCgroupLayout(readFileSync('/proc/self/mountinfo', 'utf8'));
  return hostLayout;
}

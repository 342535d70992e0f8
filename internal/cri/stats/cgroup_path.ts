// From what a spec says (runc's cgroupsPath, a pod's cgroup parent) to the path of the cgroup
// relative to a hierarchy's root, the way runc resolves it for its two drivers.
import { invalidArgument } from '../../errdefs/errors';

/** runc's default slice for the systemd driver when the cgroupsPath names none. */
const DEFAULT_SLICE = 'system.slice';

/**
 * systemd's slice expansion: "a-b-c.slice" lives at "/a.slice/a-b.slice/a-b-c.slice"; "-.slice" is
 * the root. InvalidArgument for names systemd would reject.
 */
export function expandSlice(slice: string): string {
  if (!slice.endsWith('.slice') || slice.includes('/')) throw invalidArgument(`cgroup slice ${JSON.stringify(slice)} is not a systemd slice name`);
  const name = slice.slice(0, -'.slice'.length);
  if (name === '-') return '/';
  if (name === '' || name.startsWith('-') || name.endsWith('-') || name.includes('--')) {
    throw invalidArgument(`cgroup slice ${JSON.stringify(slice)} is not a valid systemd slice name`);
  }
  let path = '';
  let prefix = '';
  for (const part of name.split('-')) {
    prefix = prefix === '' ? part : `${prefix}-${part}`;
    path += `/${prefix}.slice`;
  }
  return path;
}

/** A leading "/" and no trailing or doubled ones. */
function normalize(path: string): string {
  return `/${path.split('/').filter((p) => p !== '').join('/')}`;
}

/**
 * Where runc puts a container given its spec's linux.cgroupsPath. cgroupfs: the path itself (runc
 * joins an absolute path to each hierarchy's mountpoint). systemd: "slice:prefix:name" is the unit
 * "<prefix>-<name>.scope" (or the slice "<name>" itself) under the expanded slice.
 */
export function resolveCgroupsPath(cgroupsPath: string, systemd: boolean): string {
  if (!systemd) return normalize(cgroupsPath);
  const parts = cgroupsPath.split(':');
  if (parts.length !== 3 || parts[2] === '') {
    throw invalidArgument(`cgroupsPath ${JSON.stringify(cgroupsPath)} is not "slice:prefix:name" as the systemd cgroup driver needs`);
  }
  const [slice, prefix, name] = parts as [string, string, string];
  const unit = name.endsWith('.slice') ? name : `${prefix}-${name}.scope`;
  const parent = expandSlice(slice === '' ? DEFAULT_SLICE : slice);
  return normalize(`${parent}/${unit}`);
}

/**
 * The cgroup of a pod from its cgroup parent. cgroupfs: the path. systemd: kubelet gives either the
 * slice name ("kubepods-burstable-pod<uid>.slice") or a path ending in it; the last element decides.
 */
export function resolveCgroupParent(parent: string, systemd: boolean): string {
  if (!systemd) return normalize(parent);
  const slice = parent.split('/').filter((p) => p !== '').pop() ?? '';
  return expandSlice(slice === '' ? DEFAULT_SLICE : slice);
}

// Applying CDI container edits to an OCI spec, as the CDI reference library's ContainerEdits.Apply:
// env entries replace the same key or are appended; a device node replaces the device at its path
// (type and numbers filled in from the host node when the spec leaves them out) and, for block and
// char devices, gets an allow rule in the device cgroup; a mount replaces the mount at its
// destination, then mounts are stably sorted by depth; hooks are appended to their phase.
import { posix } from 'node:path';
import type { LinuxDevice, Spec } from '../../oci/spec';
import type { CdiHook, CdiMount, ContainerEdits, DeviceNode } from './spec_file';

/** The host's device node at a path (lstat: a symlink is no device), or undefined when it is none. */
export type StatDevice = (hostPath: string) => LinuxDevice | undefined;

/** Concatenates edits in order (spec-wide edits before a device's own). */
export function appendEdits(into: Required<ContainerEdits>, e: ContainerEdits): void {
  into.env.push(...(e.env ?? []));
  into.deviceNodes.push(...(e.deviceNodes ?? []));
  into.hooks.push(...(e.hooks ?? []));
  into.mounts.push(...(e.mounts ?? []));
}

export const emptyEdits = (): Required<ContainerEdits> => ({ env: [], deviceNodes: [], hooks: [], mounts: [] });

/** Applies `edits` to `spec` in place; throws an Error for a device node the host cannot back. */
export function applyEdits(spec: Spec, edits: ContainerEdits, statDevice: StatDevice): void {
  if (edits.env?.length) applyEnv(spec, edits.env);
  for (const node of edits.deviceNodes ?? []) applyDeviceNode(spec, node, statDevice);
  if (edits.mounts?.length) {
    for (const m of edits.mounts) applyMount(spec, m);
    spec.mounts = sortedByDepth(spec.mounts ?? []);
  }
  for (const h of edits.hooks ?? []) applyHook(spec, h);
}

function applyEnv(spec: Spec, env: readonly string[]): void {
  spec.process ??= { user: { uid: 0, gid: 0 }, cwd: '/' };
  const out = [...(spec.process.env ?? [])];
  for (const e of env) {
    const key = e.slice(0, e.indexOf('='));
    const at = out.findIndex((x) => x.slice(0, x.indexOf('=')) === key || x === key);
    if (at >= 0) out[at] = e;
    else out.push(e);
  }
  spec.process.env = out;
}

/** The reference library's fillMissingInfo: host path defaults to the path; type and numbers from the host. */
function completeNode(node: DeviceNode, statDevice: StatDevice): LinuxDevice {
  const hostPath = node.hostPath || node.path;
  let type: string = node.type ?? '';
  let major = node.major ?? 0;
  let minor = node.minor ?? 0;
  let fileMode = node.fileMode;
  const minimal = type !== '' && (major !== 0 || type === 'p');
  let host: LinuxDevice | undefined;
  let statError = 'not a device node';
  try {
    host = statDevice(hostPath);
  } catch (err) {
    statError = (err as Error).message;
  }
  if (host === undefined) {
    // A fully specified node needs no host counterpart.
    if (!minimal) throw new Error(`CDI device node ${JSON.stringify(node.path)}: host device ${JSON.stringify(hostPath)}: ${statError}`);
  } else {
    fileMode ??= host.fileMode;
    if (!minimal) {
      if (type === '') type = host.type;
      else if (type !== host.type) {
        throw new Error(`CDI device node ${JSON.stringify(node.path)}: type ${type}, but host device ${JSON.stringify(hostPath)} is ${host.type}`);
      }
      if (type !== 'p' && major === 0) {
        major = host.major;
        minor = host.minor;
      }
    }
  }
  const dev: LinuxDevice = { path: node.path, type, major, minor };
  if (fileMode !== undefined) dev.fileMode = fileMode;
  if (node.uid !== undefined) dev.uid = node.uid;
  if (node.gid !== undefined) dev.gid = node.gid;
  return dev;
}

function applyDeviceNode(spec: Spec, node: DeviceNode, statDevice: StatDevice): void {
  const dev = completeNode(node, statDevice);
  // Unless the spec says otherwise, the node belongs to the container's (non-root) user.
  const user = spec.process?.user;
  if (dev.uid === undefined && user !== undefined && user.uid > 0) dev.uid = user.uid;
  if (dev.gid === undefined && user !== undefined && user.gid > 0) dev.gid = user.gid;
  spec.linux ??= {};
  spec.linux.devices = [...(spec.linux.devices ?? []).filter((d) => d.path !== dev.path), dev];
  if (dev.type === 'b' || dev.type === 'c') {
    const permissions = node.permissions ?? '';
    const access = permissions === '' ? 'rwm' : permissions === 'none' ? '' : permissions;
    spec.linux.resources ??= {};
    (spec.linux.resources.devices ??= []).push({ allow: true, type: dev.type, major: dev.major, minor: dev.minor, access });
  }
}

function applyMount(spec: Spec, m: CdiMount): void {
  const mounts = (spec.mounts ?? []).filter((x) => x.destination !== m.containerPath);
  const added: NonNullable<Spec['mounts']>[number] = { destination: m.containerPath, source: m.hostPath };
  if (m.type) added.type = m.type;
  if (m.options?.length) added.options = [...m.options];
  mounts.push(added);
  spec.mounts = mounts;
}

/** Stable sort by the number of "/" in the cleaned destination: parents mount before children. */
function sortedByDepth(mounts: NonNullable<Spec['mounts']>): NonNullable<Spec['mounts']> {
  // Go's strings.Count(filepath.Clean(p), "/").
  const depth = (p: string) => (posix.normalize(p).replace(/(.)\/+$/, '$1').match(/\//g) ?? []).length;
  return mounts.map((m, i) => ({ m, i })).sort((a, b) => depth(a.m.destination) - depth(b.m.destination) || a.i - b.i).map(({ m }) => m);
}

function applyHook(spec: Spec, h: CdiHook): void {
  const hook: NonNullable<NonNullable<Spec['hooks']>['prestart']>[number] = { path: h.path };
  if (h.args?.length) hook.args = [...h.args];
  if (h.env?.length) hook.env = [...h.env];
  if (h.timeout !== undefined) hook.timeout = h.timeout;
  spec.hooks ??= {};
  (spec.hooks[h.hookName] ??= []).push(hook);
}

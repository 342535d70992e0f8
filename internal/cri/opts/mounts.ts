// Container mounts: the sandbox's files (/etc/hosts, /etc/hostname, /etc/resolv.conf, /dev/shm),
// the request's CRI mounts, and how they replace the spec's default mounts — as containerd's
// containerMounts + opts.WithMounts do.
import { createHash } from 'node:crypto';
import type { Mount__Output } from '../../api/gen/runtime/v1/Mount';
import { failedPrecondition, invalidArgument } from '../../errdefs/errors';
import type { Linux, Mount, Spec } from '../../oci/spec';
import type { ImageConfig, RuntimeOptions, SandboxPaths, SpecHost } from './types';
import { cleanPath, isCleanAbsolute } from './values';

export const ETC_HOSTS = '/etc/hosts';
export const ETC_HOSTNAME = '/etc/hostname';
export const RESOLV_CONF = '/etc/resolv.conf';
export const DEV_SHM = '/dev/shm';

/** A bind mount request in CRI terms (what the request's mounts and the sandbox files both are). */
export interface BindRequest {
  containerPath: string;
  hostPath: string;
  readonly: boolean;
  /** Read-only all the way down: submounts under hostPath too (CRI recursive_read_only). */
  recursiveReadOnly?: boolean;
  propagation: 'PROPAGATION_PRIVATE' | 'PROPAGATION_HOST_TO_CONTAINER' | 'PROPAGATION_BIDIRECTIONAL';
}

export function fromCriMount(m: Mount__Output): BindRequest {
  return {
    containerPath: m.container_path,
    hostPath: m.host_path,
    readonly: m.readonly,
    recursiveReadOnly: m.recursive_read_only,
    propagation: m.propagation,
  };
}

/**
 * The sandbox files every container gets unless the request mounts the same path itself. They are
 * read-only when the container's rootfs is; /dev/shm is the pod's (or the host's for host IPC).
 */
export function sandboxFileMounts(paths: SandboxPaths, criMounts: readonly BindRequest[], readonlyRootfs: boolean, hostIpc: boolean): BindRequest[] {
  const requested = new Set(criMounts.map((m) => cleanPath(m.containerPath)));
  const out: BindRequest[] = [];
  const add = (containerPath: string, hostPath: string, readonly: boolean) => {
    if (!requested.has(containerPath)) out.push({ containerPath, hostPath, readonly, propagation: 'PROPAGATION_PRIVATE' });
  };
  add(ETC_HOSTNAME, paths.hostnamePath, readonlyRootfs);
  add(ETC_HOSTS, paths.hostsPath, readonlyRootfs);
  add(RESOLV_CONF, paths.resolvPath, readonlyRootfs);
  add(DEV_SHM, hostIpc ? DEV_SHM : paths.shmPath, false);
  return out;
}

/**
 * Image-declared volumes (containerd's volumeMounts): a private directory each under `volumesDir`,
 * named by the volume's path, unless a CRI mount already covers that path. Without `volumesDir`
 * (ignore_image_defined_volumes) they stay in the rootfs.
 */
export function imageVolumeMounts(image: ImageConfig, criMounts: readonly BindRequest[], volumesDir: string | undefined): BindRequest[] {
  if (volumesDir === undefined) return [];
  const covered = new Set(criMounts.map((m) => cleanPath(m.containerPath)));
  const destinations = new Set(Object.keys(image.Volumes ?? {}).map((raw) => cleanPath(raw.startsWith('/') ? raw : `/${raw}`)));
  return [...destinations]
    .filter((dst) => !covered.has(dst))
    .sort()
    .map((dst): BindRequest => {
      const dir = createHash('sha256').update(dst).digest('hex').slice(0, 32);
      return { containerPath: dst, hostPath: `${volumesDir.replace(/\/+$/, '')}/${dir}`, readonly: false, propagation: 'PROPAGATION_PRIVATE' };
    });
}

function ensureLinux(spec: Spec): Linux {
  spec.linux ??= {};
  return spec.linux;
}

const depth = (p: string) => cleanPath(p).split('/').length - 1;

/**
 * Refuses a bind that cannot be made as asked before anything touches the host: paths must be
 * clean and absolute; recursive read-only needs a read-only, private mount and a handler whose
 * runc and kernel can do it (containerd 2.0's checks in WithMounts).
 */
function checkBindRequest(m: BindRequest, recursiveReadOnlySupported: boolean): void {
  if (!isCleanAbsolute(m.containerPath)) throw invalidArgument(`mount container_path ${JSON.stringify(m.containerPath)} must be absolute without ".."`);
  if (!isCleanAbsolute(m.hostPath)) throw invalidArgument(`mount host_path ${JSON.stringify(m.hostPath)} must be absolute without ".."`);
  if (m.recursiveReadOnly !== true) return;
  const where = `(host_path ${JSON.stringify(m.hostPath)})`;
  if (!m.readonly) throw invalidArgument(`recursive read-only mount conflicts with a read-write mount ${where}`);
  if (m.propagation !== 'PROPAGATION_PRIVATE') {
    throw invalidArgument(`recursive read-only mount needs private propagation, got ${m.propagation} ${where}`);
  }
  if (!recursiveReadOnlySupported) throw invalidArgument(`runtime handler does not support recursive read-only mounts ${where}`);
}

/** The access option of a bind: "rro" (runc makes it and every submount read-only), "ro" or "rw". */
function accessOption(m: BindRequest): 'rro' | 'ro' | 'rw' {
  if (m.recursiveReadOnly === true) return 'rro';
  return m.readonly ? 'ro' : 'rw';
}

/**
 * Puts `criMounts` (and `extra` mounts not overridden by them) into the spec as bind mounts,
 * shallowest first so a parent never hides a child. Default mounts at the same destination are
 * dropped, and every default under /dev goes when /dev itself is supplied.
 */
export function applyBindMounts(
  spec: Spec,
  criMounts: readonly BindRequest[],
  extra: readonly BindRequest[],
  host: SpecHost,
  runtime: Pick<RuntimeOptions, 'recursiveReadOnlyMounts'>,
): void {
  const criDestinations = new Set(criMounts.map((m) => cleanPath(m.containerPath)));
  const requested = [...criMounts, ...extra.filter((e) => !criDestinations.has(cleanPath(e.containerPath)))];
  // Array.prototype.sort is stable: equal depths keep request order.
  requested.sort((a, b) => depth(a.containerPath) - depth(b.containerPath));
  for (const m of requested) checkBindRequest(m, runtime.recursiveReadOnlyMounts ?? false);

  const supplied = new Set(requested.map((m) => cleanPath(m.containerPath)));
  spec.mounts = (spec.mounts ?? []).filter((m) => {
    const dst = cleanPath(m.destination);
    if (supplied.has(dst)) return false;
    return !(supplied.has('/dev') && dst.startsWith('/dev/'));
  });

  const linux = ensureLinux(spec);
  for (const m of requested) {
    const source = host.resolveMountSource(m.hostPath);
    const options = ['rbind'];
    switch (m.propagation) {
      case 'PROPAGATION_BIDIRECTIONAL':
        if (host.mountPropagation(source) !== 'shared') {
          throw failedPrecondition(`mount host_path ${JSON.stringify(m.hostPath)} is not on a shared mount; bidirectional propagation needs one`);
        }
        options.push('rshared');
        linux.rootfsPropagation = 'rshared';
        break;
      case 'PROPAGATION_HOST_TO_CONTAINER':
        if (host.mountPropagation(source) === 'private') {
          throw failedPrecondition(`mount host_path ${JSON.stringify(m.hostPath)} is on a private mount; host-to-container propagation needs a shared or slave one`);
        }
        options.push('rslave');
        if (linux.rootfsPropagation !== 'rshared' && linux.rootfsPropagation !== 'rslave') linux.rootfsPropagation = 'rslave';
        break;
      default:
        // runc's default root propagation is already rprivate; nothing to adjust.
        options.push('rprivate');
    }
    // Unlike Docker, a read-only rootfs does not make every bind read-only (containerd's choice).
    options.push(accessOption(m));
    spec.mounts.push({ destination: m.containerPath, type: 'bind', source, options });
  }
}

/** Turns "ro" into "rw" on every mount of these types (containerd's WithWriteableSysfs/Cgroupfs). */
export function makeWritable(spec: Spec, types: readonly string[]): void {
  const set = new Set(types);
  spec.mounts = (spec.mounts ?? []).map((m): Mount =>
    m.type !== undefined && set.has(m.type) && m.options !== undefined ? { ...m, options: m.options.map((o) => (o === 'ro' ? 'rw' : o)) } : m,
  );
}

/** Removes every mount at `destination`. */
export function removeMount(spec: Spec, destination: string): void {
  spec.mounts = (spec.mounts ?? []).filter((m) => cleanPath(m.destination) !== destination);
}

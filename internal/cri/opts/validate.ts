// Request checks the create paths run before any work: each failure is an InvalidArgument that
// names the offending field, so a bad request never leaves anything behind.
import type { ContainerConfig__Output } from '../../api/gen/runtime/v1/ContainerConfig';
import type { LinuxContainerResources__Output } from '../../api/gen/runtime/v1/LinuxContainerResources';
import type { PodSandboxConfig__Output } from '../../api/gen/runtime/v1/PodSandboxConfig';
import type { SecurityProfile__Output } from '../../api/gen/runtime/v1/SecurityProfile';
import { invalidArgument } from '../../errdefs/errors';
import { MAX_ID } from './user';
import { int64, isCleanAbsolute, text } from './values';

const PROFILE_TYPES = new Set(['RuntimeDefault', 'Unconfined', 'Localhost']);
/** kubelet's longest object name (a DNS subdomain); critest's names stay well under it. */
const MAX_NAME_LENGTH = 253;
/** The kernel's HOST_NAME_MAX: sethostname(2) refuses longer ones. */
const MAX_HOSTNAME_LENGTH = 64;
const CONTROL_CHARS = /[\u0000-\u001f\u007f]/;
const MAX_PORT = 65535;
const NAMESPACE_MODES = new Set(['POD', 'CONTAINER', 'NODE', 'TARGET']);

/** Linux's NAME_MAX and PATH_MAX, in bytes: longer names fail in open(2) with ENAMETOOLONG. */
const NAME_MAX = 255;
const PATH_MAX = 4096;

/** A path berthd itself opens: no NUL, no segment or whole longer than the kernel takes. */
function requireOpenablePath(p: string, field: string): void {
  if (p.includes('\0')) throw invalidArgument(`${field} ${JSON.stringify(p)} must not contain NUL`);
  if (Buffer.byteLength(p) > PATH_MAX) throw invalidArgument(`${field} is longer than ${PATH_MAX} bytes`);
  if (p.split('/').some((seg) => Buffer.byteLength(seg) > NAME_MAX)) {
    throw invalidArgument(`${field} has a path segment longer than ${NAME_MAX} bytes`);
  }
}

/** The container's log_path (".." is refused where it is joined): it must name a file. */
function validateLogPath(p: string): void {
  if (p === '') return;
  const field = 'container config log_path';
  requireOpenablePath(p, field);
  const last = p.split('/').pop();
  if (last === '' || last === '.' || last === '..') throw invalidArgument(`${field} ${JSON.stringify(p)} must name a file`);
}

function requireCleanAbsolute(p: string, field: string): void {
  if (p === '') throw invalidArgument(`${field} is required`);
  if (!p.startsWith('/')) throw invalidArgument(`${field} ${JSON.stringify(p)} must be an absolute path`);
  if (p.includes('\0')) throw invalidArgument(`${field} ${JSON.stringify(p)} must not contain NUL`);
  if (!isCleanAbsolute(p)) throw invalidArgument(`${field} ${JSON.stringify(p)} must not contain ".."`);
}

/** Resource limits: integers, not negative (quota may be -1), CFS period in runc's range, sane oom adj. */
export function validateResources(res: LinuxContainerResources__Output | null | undefined, field: string): void {
  if (res === null || res === undefined) return;
  const period = int64(res.cpu_period, `${field}.cpu_period`);
  if (period !== 0 && (period < 1000 || period > 1_000_000)) {
    throw invalidArgument(`${field}.cpu_period ${period} must be between 1000 and 1000000 microseconds`);
  }
  const quota = int64(res.cpu_quota, `${field}.cpu_quota`);
  if (quota < -1) throw invalidArgument(`${field}.cpu_quota ${quota} must be -1 (unlimited) or positive`);
  if (quota > 0 && quota < 1000) throw invalidArgument(`${field}.cpu_quota ${quota} must be at least 1000 microseconds`);
  const shares = int64(res.cpu_shares, `${field}.cpu_shares`);
  if (shares < 0 || shares > 262144) throw invalidArgument(`${field}.cpu_shares ${shares} must be between 0 and 262144`);
  const memory = int64(res.memory_limit_in_bytes, `${field}.memory_limit_in_bytes`);
  if (memory < 0) throw invalidArgument(`${field}.memory_limit_in_bytes ${memory} must not be negative`);
  const swap = int64(res.memory_swap_limit_in_bytes, `${field}.memory_swap_limit_in_bytes`);
  if (swap < -1) throw invalidArgument(`${field}.memory_swap_limit_in_bytes ${swap} must be -1 (unlimited) or positive`);
  const oom = int64(res.oom_score_adj, `${field}.oom_score_adj`);
  if (oom < -1000 || oom > 1000) throw invalidArgument(`${field}.oom_score_adj ${oom} must be between -1000 and 1000`);
  for (const [i, h] of (res.hugepage_limits ?? []).entries()) {
    if (!/^\d+(KB|MB|GB|TB|PB)$/.test(h.page_size)) {
      throw invalidArgument(`${field}.hugepage_limits[${i}].page_size ${JSON.stringify(h.page_size)} must look like "2MB" or "1GB"`);
    }
    if (!/^\d+$/.test(String(h.limit ?? '0'))) {
      throw invalidArgument(`${field}.hugepage_limits[${i}].limit ${JSON.stringify(h.limit)} must be a non-negative integer`);
    }
  }
  for (const [name, cpus] of [['cpuset_cpus', res.cpuset_cpus], ['cpuset_mems', res.cpuset_mems]] as const) {
    if (cpus !== '' && cpus !== undefined && !/^\d+(-\d+)?(,\d+(-\d+)?)*$/.test(cpus)) {
      throw invalidArgument(`${field}.${name} ${JSON.stringify(cpus)} must be a list like "0-2,4"`);
    }
  }
}

/** A seccomp SecurityProfile: known type, localhost_ref only (and always) with Localhost. */
export function validateSecurityProfile(sp: SecurityProfile__Output | null | undefined, field: string): void {
  if (sp === null || sp === undefined) return;
  if (!PROFILE_TYPES.has(sp.profile_type)) throw invalidArgument(`${field}.profile_type ${JSON.stringify(sp.profile_type)} is unknown`);
  if (sp.profile_type === 'Localhost') {
    if (sp.localhost_ref === '') throw invalidArgument(`${field}.localhost_ref is required for a Localhost profile`);
  } else if (sp.localhost_ref !== '') {
    throw invalidArgument(`${field}.localhost_ref must only be set for a Localhost profile`);
  }
}

/** The deprecated string form ("runtime/default", "unconfined", "localhost/<path>"). */
export function validateProfilePath(p: string, field: string): void {
  if (['', 'runtime/default', 'docker/default', 'unconfined'].includes(p)) return;
  if (!p.startsWith('localhost/')) throw invalidArgument(`${field} ${JSON.stringify(p)} is not a known profile`);
}

/** A metadata name: bounded, no "/" and no control characters (it ends up in names and logs). */
function validateName(value: string, field: string, required: boolean): void {
  if (value === '') {
    if (required) throw invalidArgument(`${field} is required`);
    return;
  }
  if (value.length > MAX_NAME_LENGTH) {
    throw invalidArgument(`${field} is ${value.length} characters long; at most ${MAX_NAME_LENGTH} are allowed`);
  }
  if (value.includes('/') || CONTROL_CHARS.test(value)) {
    throw invalidArgument(`${field} ${JSON.stringify(value)} must not contain "/" or control characters`);
  }
}

/** Pod-level fields written into files or handed to the kernel: hostname, log dir, DNS, ports. */
function validateSandboxFields(config: PodSandboxConfig__Output): void {
  const h = config.hostname;
  if (h.length > MAX_HOSTNAME_LENGTH || /[\s/]/.test(h) || CONTROL_CHARS.test(h)) {
    throw invalidArgument(`sandbox config hostname ${JSON.stringify(h)} must be at most ${MAX_HOSTNAME_LENGTH} characters, without spaces or "/"`);
  }
  if (config.log_directory !== '') {
    requireCleanAbsolute(config.log_directory, 'sandbox config log_directory');
    requireOpenablePath(config.log_directory, 'sandbox config log_directory');
  }
  const dns = config.dns_config;
  for (const key of ['servers', 'searches', 'options'] as const) {
    for (const [i, v] of (dns?.[key] ?? []).entries()) {
      if (CONTROL_CHARS.test(v)) throw invalidArgument(`sandbox config dns_config.${key}[${i}] ${JSON.stringify(v)} is invalid`);
    }
  }
  for (const [i, p] of (config.port_mappings ?? []).entries()) {
    for (const key of ['container_port', 'host_port'] as const) {
      if (!Number.isInteger(p[key]) || p[key] < 0 || p[key] > MAX_PORT) {
        throw invalidArgument(`sandbox config port_mappings[${i}].${key} ${p[key]} must be between 0 and ${MAX_PORT}`);
      }
    }
    if (p.host_port > 0 && p.container_port === 0) {
      throw invalidArgument(`sandbox config port_mappings[${i}].container_port is required with host_port ${p.host_port}`);
    }
  }
}

type Int64 = Parameters<typeof int64>[0];

/**
 * run_as_user, run_as_group and supplemental_groups: 0..MAX_ID, as containerd's WithUser bounds
 * them (runc takes no id past MaxInt32; a bigger one must not wrap, CVE-2024-40635).
 */
function validateIds(
  sc: { run_as_user: { value: Int64 } | null; run_as_group: { value: Int64 } | null; supplemental_groups: Int64[] | null },
  field: string,
): void {
  const check = (value: Int64, name: string): void => {
    const id = int64(value, `${field}.${name}`);
    if (id < 0 || id > MAX_ID) throw invalidArgument(`${field}.${name} ${id} is out of range (0 to ${MAX_ID})`);
  };
  if (sc.run_as_user !== null && sc.run_as_user !== undefined) check(sc.run_as_user.value, 'run_as_user');
  if (sc.run_as_group !== null && sc.run_as_group !== undefined) check(sc.run_as_group.value, 'run_as_group');
  for (const [i, g] of (sc.supplemental_groups ?? []).entries()) check(g, `supplemental_groups[${i}]`);
}

function validateNamespaceModes(ns: { network: string; pid: string; ipc: string } | null | undefined, field: string): void {
  if (ns === null || ns === undefined) return;
  for (const key of ['network', 'pid', 'ipc'] as const) {
    if (!NAMESPACE_MODES.has(ns[key])) throw invalidArgument(`${field}.${key} ${JSON.stringify(ns[key])} is unknown`);
  }
}

// The IPC namespace's sysctls besides fs.mqueue.*, as runc lists them.
const IPC_SYSCTLS = new Set([
  'kernel.msgmax',
  'kernel.msgmnb',
  'kernel.msgmni',
  'kernel.sem',
  'kernel.shmall',
  'kernel.shmmax',
  'kernel.shmmni',
  'kernel.shm_rmid_forced',
]);

/**
 * Why runc would refuse sysctl `key` for the pod (libcontainer/configs/validate), or undefined:
 * only a namespace the pod has its own of may be changed. Refused here it is InvalidArgument,
 * not the UNKNOWN of a failed runc create. A pod on the host network has the host's UTS too.
 */
function sysctlNamespaceProblem(key: string, hostNetwork: boolean, hostIpc: boolean): string | undefined {
  if (IPC_SYSCTLS.has(key) || key.startsWith('fs.mqueue.')) return hostIpc ? 'is not allowed in the host IPC namespace' : undefined;
  if (key.startsWith('net.')) return hostNetwork ? 'is not allowed in the host network namespace' : undefined;
  if (key === 'kernel.domainname' && !hostNetwork) return undefined;
  if (key === 'kernel.hostname' && !hostNetwork) return 'conflicts with the hostname field';
  return 'is not in a separate kernel namespace';
}

/** Checks a RunPodSandbox config. */
export function validateSandboxConfig(config: PodSandboxConfig__Output | null | undefined): void {
  if (config === null || config === undefined) throw invalidArgument('sandbox config is required');
  if (config.metadata === null || config.metadata === undefined) throw invalidArgument('sandbox config metadata is required');
  validateName(config.metadata.name, 'sandbox config metadata.name', true);
  validateName(config.metadata.namespace, 'sandbox config metadata.namespace', false);
  validateName(config.metadata.uid, 'sandbox config metadata.uid', false);
  validateSandboxFields(config);
  const linux = config.linux;
  if (linux === null || linux === undefined) return;
  if (linux.cgroup_parent !== '' && linux.cgroup_parent.split('/').includes('..')) {
    throw invalidArgument(`sandbox config linux.cgroup_parent ${JSON.stringify(linux.cgroup_parent)} must not contain ".."`);
  }
  const namespaces = linux.security_context?.namespace_options;
  for (const key of Object.keys(linux.sysctls ?? {})) {
    if (key === '' || /\s/.test(key)) throw invalidArgument(`sandbox config linux.sysctls key ${JSON.stringify(key)} is invalid`);
    const problem = sysctlNamespaceProblem(key, namespaces?.network === 'NODE', namespaces?.ipc === 'NODE');
    if (problem) throw invalidArgument(`sandbox config linux.sysctls key ${JSON.stringify(key)} ${problem}`);
  }
  validateResources(linux.resources, 'sandbox config linux.resources');
  validateResources(linux.overhead, 'sandbox config linux.overhead');
  const sc = linux.security_context;
  if (sc === null || sc === undefined) return;
  validateNamespaceModes(sc.namespace_options, 'sandbox config linux.security_context.namespace_options');
  if (sc.run_as_group !== null && sc.run_as_group !== undefined && (sc.run_as_user === null || sc.run_as_user === undefined)) {
    throw invalidArgument('sandbox config linux.security_context.run_as_group is set without run_as_user');
  }
  validateIds(sc, 'sandbox config linux.security_context');
  validateSecurityProfile(sc.seccomp, 'sandbox config linux.security_context.seccomp');
  if (sc.seccomp === null || sc.seccomp === undefined) {
    validateProfilePath(sc.seccomp_profile_path, 'sandbox config linux.security_context.seccomp_profile_path');
  }
}

/** Checks a CreateContainer config; `sandboxConfig` lets it refuse privileged containers in unprivileged pods. */
export function validateContainerConfig(config: ContainerConfig__Output | null | undefined, sandboxConfig?: PodSandboxConfig__Output): void {
  if (config === null || config === undefined) throw invalidArgument('container config is required');
  if (config.metadata === null || config.metadata === undefined) throw invalidArgument('container config metadata is required');
  validateName(config.metadata.name, 'container config metadata.name', true);
  if (config.image === null || config.image === undefined || config.image.image === '') {
    throw invalidArgument('container config image.image is required');
  }
  for (const [i, e] of (config.envs ?? []).entries()) {
    if (e.key === '' || e.key.includes('=') || e.key.includes('\0')) {
      throw invalidArgument(`container config envs[${i}].key ${JSON.stringify(e.key)} is invalid`);
    }
    if (text(e.value).includes('\0')) throw invalidArgument(`container config envs[${i}].value must not contain NUL`);
  }
  // execve(2) cannot carry NUL bytes: refuse here rather than fail in runc at start.
  for (const key of ['command', 'args'] as const) {
    for (const [i, a] of (config[key] ?? []).entries()) {
      if (a.includes('\0')) throw invalidArgument(`container config ${key}[${i}] must not contain NUL`);
    }
  }
  validateLogPath(config.log_path);
  if (config.working_dir !== '' && (!config.working_dir.startsWith('/') || config.working_dir.includes('\0'))) {
    throw invalidArgument(`container config working_dir ${JSON.stringify(config.working_dir)} must be an absolute path`);
  }
  for (const [i, m] of (config.mounts ?? []).entries()) {
    requireCleanAbsolute(m.container_path, `container config mounts[${i}].container_path`);
    requireCleanAbsolute(m.host_path, `container config mounts[${i}].host_path`);
  }
  for (const [i, d] of (config.devices ?? []).entries()) {
    requireCleanAbsolute(d.container_path, `container config devices[${i}].container_path`);
    requireCleanAbsolute(d.host_path, `container config devices[${i}].host_path`);
    if (!/^[rwm]*$/.test(d.permissions)) {
      throw invalidArgument(`container config devices[${i}].permissions ${JSON.stringify(d.permissions)} must be made of r, w and m`);
    }
  }
  const linux = config.linux;
  if (linux === null || linux === undefined) return;
  validateResources(linux.resources, 'container config linux.resources');
  const sc = linux.security_context;
  if (sc === null || sc === undefined) return;
  const field = 'container config linux.security_context';
  validateNamespaceModes(sc.namespace_options, `${field}.namespace_options`);
  if (sc.namespace_options?.pid === 'TARGET' && sc.namespace_options.target_id === '') {
    throw invalidArgument(`${field}.namespace_options.target_id is required when pid is TARGET`);
  }
  const hasUser = (sc.run_as_user !== null && sc.run_as_user !== undefined) || sc.run_as_username !== '';
  if (sc.run_as_group !== null && sc.run_as_group !== undefined && !hasUser) {
    throw invalidArgument(`${field}.run_as_group is set without run_as_user or run_as_username`);
  }
  validateIds(sc, field);
  validateSecurityProfile(sc.seccomp, `${field}.seccomp`);
  if (sc.seccomp === null || sc.seccomp === undefined) validateProfilePath(sc.seccomp_profile_path, `${field}.seccomp_profile_path`);
  for (const [list, name] of [[sc.masked_paths, 'masked_paths'], [sc.readonly_paths, 'readonly_paths']] as const) {
    for (const [i, p] of (list ?? []).entries()) requireCleanAbsolute(p, `${field}.${name}[${i}]`);
  }
  if (sc.privileged && sandboxConfig !== undefined && !sandboxConfig.linux?.security_context?.privileged) {
    throw invalidArgument(`${field}.privileged: no privileged container allowed in unprivileged sandbox "${sandboxConfig.metadata?.name ?? ''}"`);
  }
}

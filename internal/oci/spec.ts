// The OCI runtime spec (config.json) as TypeScript types, shaped like runtime-spec 1.0.2 — the
// version Debian's runc 1.1 reads. Field names are the JSON names; optional fields are left out of
// the JSON when undefined (JSON.stringify drops them), matching Go's `omitempty`.

export { defaultUnixSpec, defaultUnixCapabilities, OCI_VERSION } from './default_spec';

export interface Spec {
  ociVersion: string;
  process?: Process;
  root?: Root;
  hostname?: string;
  mounts?: Mount[];
  hooks?: Hooks;
  annotations?: Record<string, string>;
  linux?: Linux;
}

export interface Process {
  terminal?: boolean;
  consoleSize?: { height: number; width: number };
  user: User;
  args?: string[];
  env?: string[];
  cwd: string;
  capabilities?: LinuxCapabilities;
  rlimits?: POSIXRlimit[];
  noNewPrivileges?: boolean;
  apparmorProfile?: string;
  oomScoreAdj?: number;
  selinuxLabel?: string;
}

export interface User {
  uid: number;
  gid: number;
  umask?: number;
  additionalGids?: number[];
  username?: string;
}

export interface LinuxCapabilities {
  bounding?: string[];
  effective?: string[];
  inheritable?: string[];
  permitted?: string[];
  ambient?: string[];
}

export interface POSIXRlimit {
  type: string;
  hard: number;
  soft: number;
}

export interface Root {
  /** Relative paths are resolved against the bundle directory. */
  path: string;
  readonly?: boolean;
}

export interface Mount {
  destination: string;
  type?: string;
  source?: string;
  options?: string[];
}

export interface Hook {
  path: string;
  args?: string[];
  env?: string[];
  timeout?: number;
}

export interface Hooks {
  prestart?: Hook[];
  createRuntime?: Hook[];
  createContainer?: Hook[];
  startContainer?: Hook[];
  poststart?: Hook[];
  poststop?: Hook[];
}

export type LinuxNamespaceType = 'pid' | 'network' | 'mount' | 'ipc' | 'uts' | 'user' | 'cgroup';

export interface LinuxNamespace {
  type: LinuxNamespaceType;
  /** A namespace file to join (e.g. /proc/<pid>/ns/net); absent means "create a new one". */
  path?: string;
}

export interface LinuxIDMapping {
  containerID: number;
  hostID: number;
  size: number;
}

/** A device node runc creates (or bind-mounts) inside the container. */
export interface LinuxDevice {
  path: string;
  /** 'c' (char), 'b' (block), 'u' (unbuffered char) or 'p' (fifo). */
  type: string;
  major: number;
  minor: number;
  fileMode?: number;
  uid?: number;
  gid?: number;
}

/** A device cgroup rule; the first rule of a spec is usually "deny all". */
export interface LinuxDeviceCgroup {
  allow: boolean;
  type?: string;
  major?: number;
  minor?: number;
  access?: string;
}

export interface LinuxMemory {
  limit?: number;
  reservation?: number;
  swap?: number;
  kernel?: number;
  kernelTCP?: number;
  swappiness?: number;
  disableOOMKiller?: boolean;
  useHierarchy?: boolean;
}

export interface LinuxCPU {
  shares?: number;
  quota?: number;
  period?: number;
  realtimeRuntime?: number;
  realtimePeriod?: number;
  cpus?: string;
  mems?: string;
}

export interface LinuxPids {
  limit: number;
}

export interface LinuxHugepageLimit {
  pageSize: string;
  limit: number;
}

export interface LinuxWeightDevice {
  major: number;
  minor: number;
  weight?: number;
  leafWeight?: number;
}

export interface LinuxThrottleDevice {
  major: number;
  minor: number;
  rate: number;
}

export interface LinuxBlockIO {
  weight?: number;
  leafWeight?: number;
  weightDevice?: LinuxWeightDevice[];
  throttleReadBpsDevice?: LinuxThrottleDevice[];
  throttleWriteBpsDevice?: LinuxThrottleDevice[];
  throttleReadIOPSDevice?: LinuxThrottleDevice[];
  throttleWriteIOPSDevice?: LinuxThrottleDevice[];
}

export interface LinuxResources {
  devices?: LinuxDeviceCgroup[];
  memory?: LinuxMemory;
  cpu?: LinuxCPU;
  pids?: LinuxPids;
  blockIO?: LinuxBlockIO;
  hugepageLimits?: LinuxHugepageLimit[];
  /** cgroup v2 key/values (e.g. "memory.high"); runc 1.1 applies them on v2 only. */
  unified?: Record<string, string>;
}

export type SeccompAction =
  | 'SCMP_ACT_KILL'
  | 'SCMP_ACT_KILL_PROCESS'
  | 'SCMP_ACT_KILL_THREAD'
  | 'SCMP_ACT_TRAP'
  | 'SCMP_ACT_ERRNO'
  | 'SCMP_ACT_TRACE'
  | 'SCMP_ACT_ALLOW'
  | 'SCMP_ACT_LOG'
  | 'SCMP_ACT_NOTIFY';

export type SeccompOperator =
  | 'SCMP_CMP_NE'
  | 'SCMP_CMP_LT'
  | 'SCMP_CMP_LE'
  | 'SCMP_CMP_EQ'
  | 'SCMP_CMP_GE'
  | 'SCMP_CMP_GT'
  | 'SCMP_CMP_MASKED_EQ';

export interface LinuxSeccompArg {
  index: number;
  value: number;
  valueTwo?: number;
  op: SeccompOperator;
}

export interface LinuxSyscall {
  names: string[];
  action: SeccompAction;
  errnoRet?: number;
  args?: LinuxSeccompArg[];
}

export interface LinuxSeccomp {
  defaultAction: SeccompAction;
  defaultErrnoRet?: number;
  architectures?: string[];
  flags?: string[];
  listenerPath?: string;
  listenerMetadata?: string;
  syscalls?: LinuxSyscall[];
}

export interface LinuxIntelRdt {
  closID?: string;
  l3CacheSchema?: string;
  memBwSchema?: string;
}

export type RootfsPropagation = 'private' | 'rprivate' | 'slave' | 'rslave' | 'shared' | 'rshared' | 'unbindable' | 'runbindable';

export interface Linux {
  uidMappings?: LinuxIDMapping[];
  gidMappings?: LinuxIDMapping[];
  sysctl?: Record<string, string>;
  resources?: LinuxResources;
  cgroupsPath?: string;
  namespaces?: LinuxNamespace[];
  devices?: LinuxDevice[];
  seccomp?: LinuxSeccomp;
  rootfsPropagation?: RootfsPropagation;
  maskedPaths?: string[];
  readonlyPaths?: string[];
  mountLabel?: string;
  intelRdt?: LinuxIntelRdt;
  personality?: { domain: string; flags?: string[] };
}

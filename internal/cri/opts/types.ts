// Inputs shared by the spec builders. Everything the builders would otherwise read from the host
// (devices, mount propagation, the daemon's own oom_score_adj and capabilities, seccomp profile
// files) comes through SpecHost, so the builders stay pure and tests can pin the facts.
import type { SeccompHost } from '../../oci/seccomp_default';
import type { LinuxDevice, Spec } from '../../oci/spec';
import type { AppArmorHost } from './apparmor';

/** The part of an OCI image config (image-spec `config`) the builders use. Keys as in the JSON. */
export interface ImageConfig {
  User?: string;
  Env?: string[] | null;
  Entrypoint?: string[] | null;
  Cmd?: string[] | null;
  WorkingDir?: string;
  StopSignal?: string;
  Volumes?: Record<string, unknown> | null;
}

/** Per-runtime-handler settings (berth's runtime config, like containerd's [plugins.cri.containerd.runtimes.x]). */
export interface RuntimeOptions {
  /** containerd-style namespace, used in the fallback cgroup path `/<namespace>/<id>` (e.g. "k8s.io"). */
  namespace: string;
  /** Never ask for an oom_score_adj below berthd's own (containerd's restrict_oom_score_adj). */
  restrictOomScoreAdj: boolean;
  /** Cgroup parent used when the pod config gives none. */
  cgroupParent?: string;
  /** runc's systemd cgroup driver: cgroupsPath becomes "slice:berth:id". */
  systemdCgroup: boolean;
  /** Hugepage limits of requests are dropped (containerd's disable_hugetlb_controller, default true). */
  disableHugetlbController: boolean;
  /** Privileged containers keep the default /dev instead of getting every host device. */
  privilegedWithoutHostDevices?: boolean;
  /** Glob patterns (path.Match style) of pod annotations to copy into container and sandbox specs. */
  podAnnotations?: string[];
  /** Glob patterns of container annotations to copy into the container spec. */
  containerAnnotations?: string[];
  /** The handler's base_runtime_spec (loaded at start): containers start from a copy of it. */
  baseSpec?: Spec;
  /** Resolves and applies CDI devices; undefined when CDI is off (requests for devices are ignored). */
  cdi?: CdiInjector;
  /** The handler's runc and the kernel can make a bind read-only recursively (runc's "rro"). */
  recursiveReadOnlyMounts?: boolean;
}

/** Applies the container edits of CDI devices (qualified names) to a spec; throws for unknown ones. */
export interface CdiInjector {
  inject(spec: Spec, devices: readonly string[]): void;
}

/** Files the sandbox owns on the host, bind-mounted into each of its containers. */
export interface SandboxPaths {
  hostnamePath: string;
  hostsPath: string;
  resolvPath: string;
  /** The pod's /dev/shm (a tmpfs the server mounts); unused for host-IPC pods. */
  shmPath: string;
}

export type MountPropagationKind = 'shared' | 'slave' | 'private';

/**
 * Host facts and host look-ups the builders need; `hostFromSystem()` is the real one. `arch` and
 * `kernelRelease` choose the RuntimeDefault seccomp rules.
 */
export interface SpecHost extends SeccompHost {
  /** The node's hostname, used when the pod config has none. */
  hostname: string;
  /** berthd's own /proc/self/oom_score_adj. */
  oomScoreAdj: number;
  /** berthd's effective capabilities: what privileged or "ALL" containers get. */
  capabilities: string[];
  /** True when /sys/fs/cgroup is cgroup v2 (unified). */
  cgroupV2: boolean;
  /** True when the memory cgroup can limit swap (memsw / memory.swap.max). */
  swapControllerAvailable: boolean;
  /** True when the hugetlb cgroup controller is there to take hugepage limits. */
  hugetlbControllerAvailable: boolean;
  /** Whether seccomp can be used at all (kernel + runc built with libseccomp). */
  seccompEnabled: boolean;
  /** A host path ready to bind: missing directories created, symlinks resolved. */
  resolveMountSource(hostPath: string): string;
  /** Propagation of the mount that holds `path`. */
  mountPropagation(path: string): MountPropagationKind;
  /** The device node at hostPath (or every node below a directory), placed at containerPath. */
  devicesAt(hostPath: string, containerPath: string): LinuxDevice[];
  /** Every device node under the host's /dev (privileged containers). */
  allDevices(): LinuxDevice[];
  /** Reads a host file (Localhost seccomp profiles). */
  readFile(path: string): string;
  /** The host's AppArmor; undefined is a host without it. */
  apparmor?: AppArmorHost;
}

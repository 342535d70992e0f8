// Complete CRI messages as the gRPC decoder hands them over (every field present with its proto
// default), so the builders see exactly what the server will pass them.
import type { ContainerConfig__Output } from '../../../internal/api/gen/runtime/v1/ContainerConfig';
import type { LinuxContainerResources__Output } from '../../../internal/api/gen/runtime/v1/LinuxContainerResources';
import type { LinuxContainerSecurityContext__Output } from '../../../internal/api/gen/runtime/v1/LinuxContainerSecurityContext';
import type { LinuxSandboxSecurityContext__Output } from '../../../internal/api/gen/runtime/v1/LinuxSandboxSecurityContext';
import type { Mount__Output } from '../../../internal/api/gen/runtime/v1/Mount';
import type { NamespaceOption__Output } from '../../../internal/api/gen/runtime/v1/NamespaceOption';
import type { PodSandboxConfig__Output } from '../../../internal/api/gen/runtime/v1/PodSandboxConfig';
import type { ContainerSpecInput } from '../../../internal/cri/opts/container_spec';
import type { SandboxSpecInput } from '../../../internal/cri/opts/sandbox_spec';
import type { RuntimeOptions, SpecHost } from '../../../internal/cri/opts/types';
import { userLookupFromImage } from '../../../internal/cri/opts/user';
import type { LinuxDevice } from '../../../internal/oci/spec';

export const PASSWD = [
  'root:x:0:0:root:/root:/bin/sh',
  'daemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin',
  'alice:x:1000:1000:Alice:/home/alice:/bin/sh',
  'bob:x:1001:100::/home/bob:/bin/sh',
  'nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin',
  '',
].join('\n');

export const GROUP = [
  'root:x:0:',
  'wheel:x:10:root,alice',
  'users:x:100:bob',
  'alice:x:1000:alice',
  'audio:x:29:alice,bob',
  'staff:x:50:',
  'nogroup:x:65534:',
  '',
].join('\n');

export const imageFiles = (files: Record<string, string> = { '/etc/passwd': PASSWD, '/etc/group': GROUP }) =>
  userLookupFromImage((p) => files[p]);

export function namespaceOptions(o: Partial<NamespaceOption__Output> = {}): NamespaceOption__Output {
  return { network: 'POD', pid: 'CONTAINER', ipc: 'POD', target_id: '', userns_options: null, ...o };
}

export function resources(o: Partial<LinuxContainerResources__Output> = {}): LinuxContainerResources__Output {
  return {
    cpu_period: '0',
    cpu_quota: '0',
    cpu_shares: '0',
    memory_limit_in_bytes: '0',
    oom_score_adj: '0',
    cpuset_cpus: '',
    cpuset_mems: '',
    hugepage_limits: [],
    unified: {},
    memory_swap_limit_in_bytes: '0',
    ...o,
  };
}

export function securityContext(o: Partial<LinuxContainerSecurityContext__Output> = {}): LinuxContainerSecurityContext__Output {
  return {
    capabilities: null,
    privileged: false,
    namespace_options: namespaceOptions(),
    selinux_options: null,
    run_as_user: null,
    run_as_username: '',
    readonly_rootfs: false,
    supplemental_groups: [],
    apparmor_profile: '',
    seccomp_profile_path: '',
    no_new_privs: false,
    run_as_group: null,
    masked_paths: [],
    readonly_paths: [],
    seccomp: null,
    apparmor: null,
    supplemental_groups_policy: 'Merge',
    ...o,
  };
}

export function mount(o: Partial<Mount__Output> & Pick<Mount__Output, 'container_path' | 'host_path'>): Mount__Output {
  return {
    readonly: false,
    selinux_relabel: false,
    propagation: 'PROPAGATION_PRIVATE',
    uidMappings: [],
    gidMappings: [],
    recursive_read_only: false,
    image: null,
    image_sub_path: '',
    mount_options: [],
    ...o,
  };
}

export function containerConfig(
  o: Partial<ContainerConfig__Output> = {},
  sc: Partial<LinuxContainerSecurityContext__Output> = {},
  res: LinuxContainerResources__Output | null = null,
): ContainerConfig__Output {
  return {
    metadata: { name: 'app', attempt: 0 },
    image: { image: 'busybox:latest', annotations: {}, user_specified_image: '', runtime_handler: '', image_ref: '' },
    command: [],
    args: [],
    working_dir: '',
    envs: [],
    mounts: [],
    devices: [],
    labels: {},
    annotations: {},
    log_path: 'app/0.log',
    stdin: false,
    stdin_once: false,
    tty: false,
    linux: { resources: res, security_context: securityContext(sc) },
    windows: null,
    CDI_devices: [],
    stop_signal: 'SIGNAL_RUNTIME_DEFAULT',
    ...o,
  };
}

export function sandboxSecurityContext(o: Partial<LinuxSandboxSecurityContext__Output> = {}): LinuxSandboxSecurityContext__Output {
  return {
    namespace_options: namespaceOptions({ pid: 'POD' }),
    selinux_options: null,
    run_as_user: null,
    readonly_rootfs: false,
    supplemental_groups: [],
    privileged: false,
    seccomp_profile_path: '',
    run_as_group: null,
    seccomp: null,
    apparmor: null,
    supplemental_groups_policy: 'Merge',
    ...o,
  };
}

export function podConfig(o: Partial<PodSandboxConfig__Output> = {}, sc: Partial<LinuxSandboxSecurityContext__Output> = {}): PodSandboxConfig__Output {
  return {
    metadata: { name: 'web', uid: 'uid-1234', namespace: 'default', attempt: 0 },
    hostname: 'web-0',
    log_directory: '/var/log/pods/default_web_uid-1234',
    dns_config: null,
    port_mappings: [],
    labels: {},
    annotations: {},
    linux: { cgroup_parent: '/kubepods/besteffort/poduid-1234', security_context: sandboxSecurityContext(sc), sysctls: {}, overhead: null, resources: null },
    windows: null,
    ...o,
  };
}

export const NULL_DEVICE: LinuxDevice = { path: '/dev/null', type: 'c', major: 1, minor: 3, fileMode: 0o666, uid: 0, gid: 0 };
export const FUSE_DEVICE: LinuxDevice = { path: '/dev/fuse', type: 'c', major: 10, minor: 229, fileMode: 0o666, uid: 0, gid: 0 };

/** A SpecHost with pinned facts; host paths map to themselves, propagation from `propagation`. */
export function pinnedHost(o: Partial<SpecHost> & { propagation?: Record<string, 'shared' | 'slave' | 'private'>; files?: Record<string, string> } = {}): SpecHost {
  const { propagation = {}, files = {}, ...rest } = o;
  const devices: Record<string, LinuxDevice> = { '/dev/null': NULL_DEVICE, '/dev/fuse': FUSE_DEVICE };
  return {
    hostname: 'node-1',
    oomScoreAdj: 0,
    capabilities: ['CAP_CHOWN', 'CAP_DAC_OVERRIDE', 'CAP_KILL', 'CAP_SYS_ADMIN', 'CAP_NET_ADMIN', 'CAP_SETUID', 'CAP_SETGID'],
    cgroupV2: false,
    swapControllerAvailable: true,
    hugetlbControllerAvailable: true,
    seccompEnabled: true,
    arch: 'x64',
    kernelRelease: '6.1.0-18-amd64',
    resolveMountSource: (p) => p,
    mountPropagation: (p) => propagation[p] ?? 'private',
    devicesAt: (hostPath, containerPath) => {
      const d = devices[hostPath];
      if (d === undefined) throw new Error(`no device ${hostPath}`);
      return [{ ...d, path: containerPath || d.path }];
    },
    allDevices: () => Object.values(devices),
    readFile: (p) => {
      const f = files[p];
      if (f === undefined) throw new Error(`ENOENT: ${p}`);
      return f;
    },
    ...rest,
  };
}

export const RUNTIME: RuntimeOptions = { namespace: 'k8s.io', restrictOomScoreAdj: false, systemdCgroup: false, disableHugetlbController: true };

export function containerInput(o: Partial<ContainerSpecInput> = {}): ContainerSpecInput {
  return {
    id: 'c0ffee',
    sandboxId: 'sandbox1',
    containerConfig: containerConfig(),
    sandboxConfig: podConfig(),
    imageConfig: { Entrypoint: ['/bin/sh'], Cmd: ['-c', 'sleep 1'], Env: ['PATH=/bin', 'FOO=image'], WorkingDir: '/work' },
    imageName: 'docker.io/library/busybox:latest',
    sandboxPid: 4242,
    runtime: RUNTIME,
    sandboxPaths: { hostnamePath: '/sb/hostname', hostsPath: '/sb/hosts', resolvPath: '/sb/resolv.conf', shmPath: '/sb/shm' },
    userLookup: imageFiles(),
    host: pinnedHost(),
    ...o,
  };
}

export function sandboxInput(o: Partial<SandboxSpecInput> = {}): SandboxSpecInput {
  return {
    id: 'sandbox1',
    config: podConfig(),
    imageConfig: { Entrypoint: ['/pause'], User: '65535:65535', Env: ['PATH=/bin'] },
    imageName: 'registry.k8s.io/pause:3.9',
    netnsPath: '/var/run/netns/cni-1234',
    runtime: RUNTIME,
    sandboxPaths: { resolvPath: '/sb/resolv.conf', shmPath: '/sb/shm' },
    userLookup: imageFiles({}),
    host: pinnedHost(),
    ...o,
  };
}

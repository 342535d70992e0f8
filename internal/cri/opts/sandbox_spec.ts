// buildSandboxSpec: the OCI spec of a pod's pause container, as containerd's sandboxContainerSpec
// and sandboxContainerSpecOpts: read-only rootfs, the pod's namespaces, its /dev/shm and
// resolv.conf, sysctls, a low oom score and the minimum CPU shares.
import type { PodSandboxConfig__Output } from '../../api/gen/runtime/v1/PodSandboxConfig';
import { invalidArgument } from '../../errdefs/errors';
import { defaultUnixSpec } from '../../oci/default_spec';
import type { Spec } from '../../oci/spec';
import * as annotations from '../annotations';
import { DEV_SHM, makeWritable, RESOLV_CONF, removeMount } from './mounts';
import { applySandboxNamespaces } from './namespaces';
import { applyUser, mergeEnv, userString } from './process';
import { applyCpuShares, applyOomScoreAdj, cgroupsPath } from './resources';
import { sandboxSysctls, type UnprivilegedNetworkOptions } from './sandbox_sysctls';
import { applySeccomp, seccompChoice } from './security';
import type { ImageConfig, RuntimeOptions, SandboxPaths, SpecHost } from './types';
import type { UserLookup } from './user';
import { validateSandboxConfig } from './validate';
import { int64, passthroughAnnotations } from './values';

/** containerd's defaultSandboxOOMAdj: the pause process should be the last to be OOM-killed. */
export const DEFAULT_SANDBOX_OOM_ADJ = -998;
/** containerd's DefaultSandboxCPUshares: pause needs next to no CPU. */
export const DEFAULT_SANDBOX_CPU_SHARES = 2;

export interface SandboxSpecInput {
  id: string;
  config: PodSandboxConfig__Output;
  imageConfig: ImageConfig;
  /** The pause image reference (for the image-name annotation). */
  imageName: string;
  /** The pod's bind-mounted network namespace; undefined means "a new one" (runc creates it). */
  netnsPath?: string;
  runtime: RuntimeOptions;
  sandboxPaths: Pick<SandboxPaths, 'resolvPath' | 'shmPath'>;
  userLookup: UserLookup;
  host: SpecHost;
  /** containerd 2.0's enable_unprivileged_ports / _icmp; both off when not given. */
  unprivileged?: UnprivilegedNetworkOptions;
}

const FIELD = 'sandbox config linux.security_context';

export function buildSandboxSpec(input: SandboxSpecInput): Spec {
  const { id, config, imageConfig: image, runtime, host } = input;
  validateSandboxConfig(config);
  const sc = config.linux?.security_context ?? null;
  const nsOptions = sc?.namespace_options ?? null;
  const hostNetwork = nsOptions?.network === 'NODE';
  const hostIpc = nsOptions?.ipc === 'NODE';

  const spec = defaultUnixSpec(id, runtime.namespace);
  const process = spec.process!;
  delete process.rlimits;
  delete process.apparmorProfile;

  const entrypoint = image.Entrypoint ?? [];
  const cmd = image.Cmd ?? [];
  if (entrypoint.length === 0 && cmd.length === 0) {
    throw invalidArgument(`sandbox image "${input.imageName}" has neither Entrypoint nor Cmd`);
  }
  process.args = [...entrypoint, ...cmd];
  process.env = mergeEnv([], image.Env ?? []);
  process.cwd = image.WorkingDir || '/';
  spec.root = { path: 'rootfs', readonly: true };
  // runc refuses a hostname without a private UTS namespace, and host-network pods share the host's.
  if (!hostNetwork && config.hostname !== '') spec.hostname = config.hostname;

  spec.linux!.cgroupsPath = cgroupsPath(config.linux?.cgroup_parent || runtime.cgroupParent || '', id, runtime.systemdCgroup, runtime.namespace);
  applySandboxNamespaces(spec, nsOptions, input.netnsPath);

  // The pod's /dev/shm (the host's for host IPC) and resolv.conf, both read-only for pause.
  removeMount(spec, DEV_SHM);
  spec.mounts!.push(
    { destination: DEV_SHM, type: 'bind', source: hostIpc ? DEV_SHM : input.sandboxPaths.shmPath, options: ['rbind', 'ro'] },
    { destination: RESOLV_CONF, type: 'bind', source: input.sandboxPaths.resolvPath, options: ['rbind', 'ro'] },
  );

  // A netns has one sysfs superblock: mounted read-only by pause first, it stays read-only for
  // every privileged container of the pod. A privileged pod's pause mounts it read-write
  // (containerd 2.1's fix of the same problem; its containers still get "ro" unless privileged).
  if (sc?.privileged) makeWritable(spec, ['sysfs']);

  const sysctls = sandboxSysctls(config, input.unprivileged ?? { unprivilegedPorts: false, unprivilegedIcmp: false });
  if (Object.keys(sysctls).length > 0) spec.linux!.sysctl = sysctls;

  applyCpuShares(spec, DEFAULT_SANDBOX_CPU_SHARES);
  applyOomScoreAdj(spec, DEFAULT_SANDBOX_OOM_ADJ, runtime.restrictOomScoreAdj, host.oomScoreAdj);

  const res = config.linux?.resources;
  const resourceAnnotations: Record<string, string> =
    res === null || res === undefined
      ? {}
      : {
          [annotations.SandboxCPUPeriod]: String(int64(res.cpu_period, 'sandbox config linux.resources.cpu_period')),
          [annotations.SandboxCPUQuota]: String(int64(res.cpu_quota, 'sandbox config linux.resources.cpu_quota')),
          [annotations.SandboxCPUShares]: String(int64(res.cpu_shares, 'sandbox config linux.resources.cpu_shares')),
          [annotations.SandboxMem]: String(int64(res.memory_limit_in_bytes, 'sandbox config linux.resources.memory_limit_in_bytes')),
        };
  spec.annotations = {
    ...passthroughAnnotations(config.annotations, runtime.podAnnotations),
    ...resourceAnnotations,
    [annotations.ContainerType]: annotations.ContainerTypeSandbox,
    [annotations.SandboxID]: id,
    [annotations.SandboxNamespace]: config.metadata?.namespace ?? '',
    [annotations.SandboxUID]: config.metadata?.uid ?? '',
    [annotations.SandboxName]: config.metadata?.name ?? '',
    [annotations.SandboxLogDir]: config.log_directory,
    [annotations.SandboxImageName]: input.imageName,
  };

  const user = userString('', sc?.run_as_user, sc?.run_as_group, FIELD) || image.User || '';
  const supplemental = (sc?.supplemental_groups ?? []).map((g, i) => int64(g, `${FIELD}.supplemental_groups[${i}]`));
  applyUser(spec, user, '', supplemental, input.userLookup);

  applySeccomp(spec, seccompChoice(sc?.seccomp, sc?.seccomp_profile_path ?? '', FIELD), sc?.privileged ?? false, host, FIELD);
  return spec;
}

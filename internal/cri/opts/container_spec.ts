// buildContainerSpec: the OCI spec of a workload container, from its CRI config, its pod's config
// and its image config — the same decisions containerd's CRI plugin makes in containerSpec and
// containerSpecOpts, in the same order (later steps may override earlier ones).
import type { ContainerConfig__Output } from '../../api/gen/runtime/v1/ContainerConfig';
import type { PodSandboxConfig__Output } from '../../api/gen/runtime/v1/PodSandboxConfig';
import { invalidArgument } from '../../errdefs/errors';
import type { Spec } from '../../oci/spec';
import * as annotations from '../annotations';
import { applyAppArmor, appArmorChoice } from './apparmor';
import { initialContainerSpec } from './base_spec';
import { applyCdiDevices } from './cdi_devices';
import { applyBindMounts, fromCriMount, imageVolumeMounts, sandboxFileMounts } from './mounts';
import { applyContainerNamespaces, setNamespace } from './namespaces';
import { applyUser, containerArgs, DEFAULT_PATH_ENV, mergeEnv, userString } from './process';
import { applyOomScoreAdj, applyResources, cgroupsPath } from './resources';
import { applyCapabilities, applyPrivileged, applySeccomp, clearAmbientCapabilities, seccompChoice } from './security';
import type { ImageConfig, RuntimeOptions, SandboxPaths, SpecHost } from './types';
import type { UserLookup } from './user';
import { validateContainerConfig } from './validate';
import { int64, passthroughAnnotations, text } from './values';

export interface ContainerSpecInput {
  id: string;
  sandboxId: string;
  containerConfig: ContainerConfig__Output;
  sandboxConfig: PodSandboxConfig__Output;
  imageConfig: ImageConfig;
  /** The image reference the container was created from (for the image-name annotation). */
  imageName: string;
  /** PID of the pod's pause process, whose namespaces the container joins. */
  sandboxPid: number;
  /** PID of the container named by namespace_options.target_id, when pid mode is TARGET. */
  targetPid?: number;
  runtime: RuntimeOptions;
  sandboxPaths: SandboxPaths;
  /** Users and groups of this container's image. */
  userLookup: UserLookup;
  host: SpecHost;
  /** Host directory under which image-declared volumes get their backing directories. */
  volumesDir?: string;
}

const FIELD = 'container config linux.security_context';

/** Builds the container's spec; throws InvalidArgument (naming the field) for a bad request. */
export function buildContainerSpec(input: ContainerSpecInput): Spec {
  const { id, containerConfig: config, sandboxConfig, imageConfig: image, host, runtime } = input;
  validateContainerConfig(config, sandboxConfig);
  const name = config.metadata?.name ?? '';
  const sc = config.linux?.security_context ?? null;
  const nsOptions = sc?.namespace_options ?? null;
  const privileged = sc?.privileged ?? false;

  const spec = initialContainerSpec(id, runtime);
  const process = spec.process!;
  const linux = spec.linux!;
  // CRI leaves rlimits and LSM/seccomp to the request, not to runtime defaults (containerd #515).
  delete process.rlimits;
  delete process.apparmorProfile;

  process.args = containerArgs(config, image, name);
  process.noNewPrivileges = false;
  process.cwd = config.working_dir || image.WorkingDir || '/';
  process.terminal = config.tty || undefined;

  // A base spec's env, PATH, then TERM for ttys and HOSTNAME, then the image's env, then the request's: later wins.
  const envs = (config.envs ?? []).map((e) => `${e.key}=${text(e.value)}`);
  let env = mergeEnv(process.env ?? [], [DEFAULT_PATH_ENV]);
  if (config.tty) env = mergeEnv(env, ['TERM=xterm']);
  env = mergeEnv(env, [`HOSTNAME=${sandboxConfig.hostname || host.hostname}`]);
  process.env = mergeEnv(env, [...(image.Env ?? []), ...envs]);

  const criMounts = (config.mounts ?? []).map(fromCriMount);
  const hostIpc = nsOptions?.ipc === 'NODE';
  const extra = [
    ...sandboxFileMounts(input.sandboxPaths, criMounts, sc?.readonly_rootfs ?? false, hostIpc),
    ...imageVolumeMounts(image, criMounts, input.volumesDir),
  ];
  applyBindMounts(spec, criMounts, extra, host, runtime);

  // Kubelet sends the default masked/read-only /proc paths itself; without them nothing is masked.
  linux.maskedPaths = [...(sc?.masked_paths ?? [])];
  linux.readonlyPaths = [...(sc?.readonly_paths ?? [])];

  for (const d of config.devices ?? []) {
    // As given, as containerd passes it: an empty one is runc's to refuse, never widened to rwm.
    const access = d.permissions;
    for (const dev of host.devicesAt(d.host_path, d.container_path)) {
      (linux.devices ??= []).push(dev);
      (linux.resources!.devices ??= []).push({ allow: true, type: dev.type, major: dev.major, minor: dev.minor, access });
    }
  }
  applyCapabilities(spec, sc?.capabilities, host.capabilities);
  if (privileged) applyPrivileged(spec, host, !runtime.privilegedWithoutHostDevices);
  clearAmbientCapabilities(spec);
  if (sc?.no_new_privs) process.noNewPrivileges = true;
  if (sc?.readonly_rootfs) spec.root = { ...spec.root!, readonly: true };

  applyResources(spec, config.linux?.resources, host, 'container config linux.resources', runtime);
  const parent = sandboxConfig.linux?.cgroup_parent || runtime.cgroupParent || '';
  linux.cgroupsPath = cgroupsPath(parent, id, runtime.systemdCgroup, runtime.namespace);

  spec.annotations = {
    ...spec.annotations, // a base_runtime_spec's own
    ...passthroughAnnotations(sandboxConfig.annotations, runtime.podAnnotations),
    ...passthroughAnnotations(config.annotations, runtime.containerAnnotations),
    [annotations.ContainerType]: annotations.ContainerTypeContainer,
    [annotations.SandboxID]: input.sandboxId,
    [annotations.SandboxNamespace]: sandboxConfig.metadata?.namespace ?? '',
    [annotations.SandboxUID]: sandboxConfig.metadata?.uid ?? '',
    [annotations.SandboxName]: sandboxConfig.metadata?.name ?? '',
    [annotations.ContainerName]: name,
    [annotations.ImageName]: input.imageName,
  };

  const resources = config.linux?.resources;
  if (resources !== null && resources !== undefined) {
    applyOomScoreAdj(spec, int64(resources.oom_score_adj, 'container config linux.resources.oom_score_adj'), runtime.restrictOomScoreAdj, host.oomScoreAdj);
  }

  if (nsOptions?.pid === 'TARGET' && input.targetPid === undefined) {
    throw invalidArgument(`${FIELD}.namespace_options.target_id ${JSON.stringify(nsOptions.target_id)}: target container has no running process`);
  }
  applyContainerNamespaces(spec, nsOptions, input.sandboxPid, input.targetPid ?? input.sandboxPid);
  // A cgroup namespace hides the host's cgroup tree; on v1 it breaks the cgroup mount, so v2 only.
  if (host.cgroupV2 && !privileged) setNamespace(spec, 'cgroup');

  const username = sc?.run_as_username ?? '';
  const user = userString(username, sc?.run_as_user, sc?.run_as_group, FIELD) || image.User || '';
  const supplemental = (sc?.supplemental_groups ?? []).map((g, i) => int64(g, `${FIELD}.supplemental_groups[${i}]`));
  // Group membership is looked up for the user the process really runs as; Strict skips /etc/group.
  const memberOf = sc?.supplemental_groups_policy === 'Strict' ? '' : effectiveUserName(username, sc?.run_as_user?.value, image.User);
  applyUser(spec, user, memberOf, supplemental, input.userLookup);

  applySeccomp(spec, seccompChoice(sc?.seccomp, sc?.seccomp_profile_path ?? '', FIELD), privileged, host, FIELD);
  applyAppArmor(spec, appArmorChoice(sc?.apparmor, sc?.apparmor_profile ?? '', FIELD), privileged, host.apparmor, FIELD);
  applyCdiDevices(spec, config, runtime.cdi);
  return spec;
}

/** The user whose /etc/group memberships become additional gids. */
function effectiveUserName(username: string, uid: string | undefined, imageUser: string | undefined): string {
  if (username !== '') return username;
  if (uid !== undefined) return String(int64(uid, `${FIELD}.run_as_user`));
  const fromImage = (imageUser ?? '').split(':')[0] ?? '';
  return fromImage === '' ? '0' : fromImage;
}

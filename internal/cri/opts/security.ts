// Security settings: capabilities (add/drop with "ALL"), privileged mode, and the seccomp profile
// chosen by the CRI SecurityProfile (or its deprecated string form).
import type { Capability__Output } from '../../api/gen/runtime/v1/Capability';
import type { SecurityProfile__Output } from '../../api/gen/runtime/v1/SecurityProfile';
import { invalidArgument } from '../../errdefs/errors';
import { defaultSeccompProfile } from '../../oci/seccomp_default';
import type { LinuxCapabilities, LinuxSeccomp, Spec } from '../../oci/spec';
import { makeWritable } from './mounts';
import { ensureProcess } from './process';
import type { SpecHost } from './types';

function ensureCapabilities(spec: Spec): LinuxCapabilities {
  const process = ensureProcess(spec);
  process.capabilities ??= {};
  return process.capabilities;
}

function setAll(caps: LinuxCapabilities, list: readonly string[]): void {
  caps.bounding = [...list];
  caps.effective = [...list];
  caps.permitted = [...list];
}

const toCapName = (c: string) => {
  const upper = c.toUpperCase();
  return upper.startsWith('CAP_') ? upper : `CAP_${upper}`;
};

/**
 * CRI add/drop lists (names without "CAP_"). "ALL" in add grants `allCaps`, "ALL" in drop clears
 * everything first, so {add: [ALL], drop: [CHOWN]} is all but CHOWN and {drop: [ALL], add: [KILL]} is
 * only KILL.
 */
export function applyCapabilities(spec: Spec, capability: Capability__Output | null | undefined, allCaps: readonly string[]): void {
  if (capability === null || capability === undefined) return;
  const caps = ensureCapabilities(spec);
  const add = capability.add_capabilities ?? [];
  const drop = capability.drop_capabilities ?? [];
  const isAll = (c: string) => c.toUpperCase() === 'ALL';
  if (add.some(isAll)) setAll(caps, allCaps);
  if (drop.some(isAll)) setAll(caps, []);
  for (const key of ['bounding', 'effective', 'permitted'] as const) {
    let list = caps[key] ?? [];
    for (const c of add.filter((c) => !isAll(c)).map(toCapName)) if (!list.includes(c)) list = [...list, c];
    const dropped = new Set(drop.filter((c) => !isAll(c)).map(toCapName));
    caps[key] = list.filter((c) => !dropped.has(c));
  }
}

/** Kubernetes leaves ambient capabilities undefined for non-root users; like Docker, grant none. */
export function clearAmbientCapabilities(spec: Spec): void {
  const caps = ensureCapabilities(spec);
  delete caps.ambient;
}

/**
 * Privileged: every capability berthd holds, no masked or read-only /proc paths, writable /sys and
 * /sys/fs/cgroup, no seccomp or LSM profile; plus all host devices, all allowed, unless the
 * runtime keeps them out.
 */
export function applyPrivileged(spec: Spec, host: SpecHost, withHostDevices: boolean): void {
  setAll(ensureCapabilities(spec), host.capabilities);
  const process = ensureProcess(spec);
  delete process.apparmorProfile;
  delete process.selinuxLabel;
  spec.linux ??= {};
  delete spec.linux.maskedPaths;
  delete spec.linux.readonlyPaths;
  delete spec.linux.seccomp;
  makeWritable(spec, ['sysfs', 'cgroup']);
  if (withHostDevices) {
    spec.linux.devices = [...(spec.linux.devices ?? []), ...host.allDevices()];
    spec.linux.resources ??= {};
    spec.linux.resources.devices = [{ allow: true, access: 'rwm' }];
  }
}

export type SeccompChoice = { kind: 'none' } | { kind: 'runtime-default' } | { kind: 'localhost'; path: string };

/** The effective seccomp choice from the CRI fields (the structured one wins over the deprecated path). */
export function seccompChoice(profile: SecurityProfile__Output | null | undefined, profilePath: string, field: string): SeccompChoice {
  if (profile !== null && profile !== undefined) {
    if (profile.profile_type !== 'Localhost' && profile.localhost_ref !== '') {
      throw invalidArgument(`${field}.seccomp.localhost_ref must only be set for a Localhost profile`);
    }
    switch (profile.profile_type) {
      case 'Unconfined':
        return { kind: 'none' };
      case 'RuntimeDefault':
        return { kind: 'runtime-default' };
      case 'Localhost':
        if (profile.localhost_ref === '') throw invalidArgument(`${field}.seccomp.localhost_ref is required for a Localhost profile`);
        return { kind: 'localhost', path: profile.localhost_ref.replace(/^localhost\//, '') };
      default:
        throw invalidArgument(`${field}.seccomp.profile_type ${JSON.stringify(profile.profile_type)} is unknown`);
    }
  }
  switch (profilePath) {
    case '':
      // Neither field set: containerd (unset_seccomp_profile = "") runs unconfined.
      return { kind: 'none' };
    case 'unconfined':
      return { kind: 'none' };
    case 'runtime/default':
    case 'docker/default':
      return { kind: 'runtime-default' };
    default:
      if (!profilePath.startsWith('localhost/')) throw invalidArgument(`${field}.seccomp_profile_path ${JSON.stringify(profilePath)} is not a known profile`);
      return { kind: 'localhost', path: profilePath.slice('localhost/'.length) };
  }
}

/**
 * Sets linux.seccomp for `choice`. Privileged containers never get a profile. The default profile
 * depends on the bounding set, so call this after capabilities are final.
 */
export function applySeccomp(spec: Spec, choice: SeccompChoice, privileged: boolean, host: SpecHost, field: string): void {
  spec.linux ??= {};
  delete spec.linux.seccomp;
  if (privileged || choice.kind === 'none') return;
  if (!host.seccompEnabled) throw invalidArgument(`${field}: seccomp is not supported on this host`);
  if (choice.kind === 'runtime-default') {
    spec.linux.seccomp = defaultSeccompProfile(spec.process?.capabilities?.bounding ?? [], host);
    return;
  }
  if (!choice.path.startsWith('/')) throw invalidArgument(`${field}: seccomp profile path ${JSON.stringify(choice.path)} must be absolute`);
  let textOfProfile: string;
  try {
    textOfProfile = host.readFile(choice.path);
  } catch (err) {
    throw invalidArgument(`${field}: cannot load seccomp profile ${JSON.stringify(choice.path)}: ${(err as Error).message}`, err);
  }
  spec.linux.seccomp = parseSeccompProfile(textOfProfile, choice.path, field);
}

function parseSeccompProfile(json: string, path: string, field: string): LinuxSeccomp {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch (err) {
    // Not V8's message: it quotes the file's first bytes, and the path can name any host file.
    const at = /at position (\d+)/.exec((err as Error).message)?.[1];
    throw invalidArgument(`${field}: seccomp profile ${JSON.stringify(path)} is not JSON${at === undefined ? '' : ` (at byte ${at})`}`);
  }
  if (typeof parsed !== 'object' || parsed === null || typeof (parsed as { defaultAction?: unknown }).defaultAction !== 'string') {
    throw invalidArgument(`${field}: seccomp profile ${JSON.stringify(path)} has no defaultAction`);
  }
  return parsed as LinuxSeccomp;
}

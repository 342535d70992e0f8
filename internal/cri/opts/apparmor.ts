// A container's AppArmor profile, as containerd's generateApparmorSpecOpts (1.7/2.0): where the
// host has AppArmor, an unset profile or RuntimeDefault is containerd's generated default profile
// (none for privileged containers), Localhost names a profile that must already be loaded, and
// Unconfined sets nothing. Where the host has no AppArmor, any request but Unconfined fails rather
// than run the container without the confinement it asked for; an unset profile sets nothing.
import type { SecurityProfile__Output } from '../../api/gen/runtime/v1/SecurityProfile';
import { failedPrecondition, invalidArgument } from '../../errdefs/errors';
import type { Spec } from '../../oci/spec';
import { ensureProcess } from './process';

/** containerd's default profile name, so nodes that ran containerd share the loaded profile. */
export const DEFAULT_APPARMOR_PROFILE = 'cri-containerd.apparmor.d';

/** The host's AppArmor, as the builders see it (apparmor_host.ts reads the real one). */
export interface AppArmorHost {
  /** AppArmor is in the kernel and enabled (/sys/module/apparmor/parameters/enabled is "Y"). */
  enabled: boolean;
  /** `name` is among the loaded profiles (/sys/kernel/security/apparmor/profiles). */
  profileLoaded(name: string): boolean;
  /** Loads the default profile when it is not loaded yet. */
  ensureDefaultProfile(name: string): void;
}

export type AppArmorChoice = { kind: 'unconfined' } | { kind: 'runtime-default' } | { kind: 'localhost'; name: string };

/** The request's choice (the structured field wins over the deprecated string); undefined = unset. */
export function appArmorChoice(profile: SecurityProfile__Output | null | undefined, profileName: string, field: string): AppArmorChoice | undefined {
  if (profile !== null && profile !== undefined) {
    if (profile.profile_type !== 'Localhost' && profile.localhost_ref !== '') {
      throw invalidArgument(`${field}.apparmor.localhost_ref must only be set for a Localhost profile`);
    }
    switch (profile.profile_type) {
      case 'Unconfined':
        return { kind: 'unconfined' };
      case 'RuntimeDefault':
        return { kind: 'runtime-default' };
      case 'Localhost': {
        const name = profile.localhost_ref.replace(/^localhost\//, '');
        if (name === '') throw invalidArgument(`${field}.apparmor.localhost_ref is required for a Localhost profile`);
        return { kind: 'localhost', name };
      }
      default:
        throw invalidArgument(`${field}.apparmor.profile_type ${JSON.stringify(profile.profile_type)} is unknown`);
    }
  }
  switch (profileName) {
    case '':
      return undefined;
    case 'runtime/default':
    case 'docker/default':
      return { kind: 'runtime-default' };
    case 'unconfined':
      return { kind: 'unconfined' };
    default: {
      if (!profileName.startsWith('localhost/')) throw invalidArgument(`${field}.apparmor_profile ${JSON.stringify(profileName)} is not a known profile`);
      const name = profileName.slice('localhost/'.length);
      if (name === '') throw invalidArgument(`${field}.apparmor_profile "localhost/" names no profile`);
      return { kind: 'localhost', name };
    }
  }
}

const describe = (c: AppArmorChoice) => (c.kind === 'localhost' ? `localhost/${c.name}` : c.kind === 'runtime-default' ? 'runtime/default' : 'unconfined');

/** Sets process.apparmorProfile for `choice`; `host` undefined is a host without AppArmor. */
export function applyAppArmor(spec: Spec, choice: AppArmorChoice | undefined, privileged: boolean, host: AppArmorHost | undefined, field: string): void {
  const process = ensureProcess(spec);
  delete process.apparmorProfile;
  if (host === undefined || !host.enabled) {
    if (choice !== undefined && choice.kind !== 'unconfined') {
      throw failedPrecondition(`${field}: AppArmor profile ${describe(choice)} requested, but AppArmor is not enabled on this host`);
    }
    return;
  }
  // kubernetes#51746: with AppArmor on the host, an unset profile is the runtime default.
  const effective = choice ?? { kind: 'runtime-default' };
  switch (effective.kind) {
    case 'unconfined':
      return;
    case 'runtime-default':
      if (privileged) return;
      host.ensureDefaultProfile(DEFAULT_APPARMOR_PROFILE);
      process.apparmorProfile = DEFAULT_APPARMOR_PROFILE;
      return;
    case 'localhost':
      if (!host.profileLoaded(effective.name)) {
        throw failedPrecondition(`${field}: AppArmor profile ${JSON.stringify(effective.name)} is not loaded on this host`);
      }
      process.apparmorProfile = effective.name;
  }
}

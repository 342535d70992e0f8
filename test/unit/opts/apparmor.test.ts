import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { SecurityProfile__Output } from '../../../internal/api/gen/runtime/v1/SecurityProfile';
import { DEFAULT_APPARMOR_PROFILE } from '../../../internal/cri/opts/apparmor';
import { appArmorHostAt, defaultProfileText } from '../../../internal/cri/opts/apparmor_host';
import { buildContainerSpec } from '../../../internal/cri/opts/container_spec';
import { kindOf } from '../../../internal/errdefs/errors';
import type { Spec } from '../../../internal/oci/spec';
import { containerConfig, containerInput, pinnedHost, podConfig } from './fixtures';
import { thrownBy } from '../../harness/thrown';

const RD: SecurityProfile__Output = { profile_type: 'RuntimeDefault', localhost_ref: '' };
const UNCONFINED: SecurityProfile__Output = { profile_type: 'Unconfined', localhost_ref: '' };
const localhost = (ref: string): SecurityProfile__Output => ({ profile_type: 'Localhost', localhost_ref: ref });

const thrown = (fn: () => unknown) => thrownBy(fn) as Error;

/** A fake root with /sys files as a host with (or without) AppArmor shows them. */
function fakeRoot(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'apparmor-root-'));
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(join(root, dirname(rel)), { recursive: true });
    writeFileSync(join(root, rel), text);
  }
  return root;
}

const ENABLED = {
  'sys/module/apparmor/parameters/enabled': 'Y\n',
  'sys/kernel/security/apparmor/profiles': 'my-profile (enforce)\nother (complain)\n',
};

describe('AppArmor, host without it (this host)', () => {
  let root: string;
  beforeAll(() => {
    root = fakeRoot({ 'sys/module/apparmor/parameters/enabled': 'N\n' });
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  const build = (sc: object) => () => buildContainerSpec(containerInput({ containerConfig: containerConfig({}, sc), host: pinnedHost({ apparmor: appArmorHostAt(root) }) }));

  it('reads the host as disabled', () => {
    expect(appArmorHostAt(root).enabled).toBe(false);
    // No securityfs entry at all (a kernel without AppArmor): disabled too.
    const bare = fakeRoot({ 'sys/module/apparmor/parameters/enabled': 'Y\n' });
    expect(appArmorHostAt(bare).enabled).toBe(false);
    rmSync(bare, { recursive: true, force: true });
  });

  it('sets no profile when none is asked for, or Unconfined', () => {
    expect(build({})().process!.apparmorProfile).toBeUndefined();
    expect(build({ apparmor: UNCONFINED })().process!.apparmorProfile).toBeUndefined();
    expect(build({ apparmor_profile: 'unconfined' })().process!.apparmorProfile).toBeUndefined();
  });

  it('refuses RuntimeDefault and Localhost with a clear error instead of dropping them', () => {
    for (const sc of [{ apparmor: RD }, { apparmor_profile: 'runtime/default' }, { apparmor: localhost('my-profile') }, { apparmor_profile: 'localhost/my-profile' }]) {
      const err = thrown(build(sc));
      expect(kindOf(err)).toBe('FailedPrecondition');
      expect(err.message).toMatch(/AppArmor profile (runtime\/default|localhost\/my-profile) requested, but AppArmor is not enabled on this host/);
    }
  });

  it('refuses malformed requests whatever the host', () => {
    expect(kindOf(thrown(build({ apparmor: { profile_type: 'RuntimeDefault', localhost_ref: 'x' } })))).toBe('InvalidArgument');
    expect(kindOf(thrown(build({ apparmor: localhost('') })))).toBe('InvalidArgument');
    expect(kindOf(thrown(build({ apparmor_profile: 'my-profile' })))).toBe('InvalidArgument');
  });
});

describe('AppArmor, host with it enabled', () => {
  let root: string;
  let loaded: string[];
  beforeEach(() => {
    root = fakeRoot(ENABLED);
    loaded = [];
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  const host = () => pinnedHost({ apparmor: appArmorHostAt(root, { loadProfile: (text) => loaded.push(text) }) });
  const profileOf = (sc: object): string | undefined => buildContainerSpec(containerInput({ containerConfig: containerConfig({}, sc), host: host() })).process!.apparmorProfile;

  it('gives unset and RuntimeDefault requests the default profile, loading it when it is not loaded', () => {
    expect(appArmorHostAt(root).enabled).toBe(true);
    expect(profileOf({})).toBe(DEFAULT_APPARMOR_PROFILE);
    expect(profileOf({ apparmor: RD })).toBe(DEFAULT_APPARMOR_PROFILE);
    expect(profileOf({ apparmor_profile: 'runtime/default' })).toBe(DEFAULT_APPARMOR_PROFILE);
    expect(loaded).toHaveLength(3);
    expect(loaded[0]).toContain(`profile ${DEFAULT_APPARMOR_PROFILE} flags=(attach_disconnected,mediate_deleted) {`);
    expect(loaded[0]).toContain('deny mount,');
  });

  it('does not reload a default profile that is loaded already', () => {
    writeFileSync(join(root, 'sys/kernel/security/apparmor/profiles'), `${DEFAULT_APPARMOR_PROFILE} (enforce)\n`);
    expect(profileOf({ apparmor: RD })).toBe(DEFAULT_APPARMOR_PROFILE);
    expect(loaded).toEqual([]);
  });

  it('gives privileged containers no default profile, but the Localhost one they name', () => {
    const spec = (sc: object): Spec =>
      buildContainerSpec(containerInput({ containerConfig: containerConfig({}, { privileged: true, ...sc }), sandboxConfig: podConfig({}, { privileged: true }), host: host() }));
    expect(spec({}).process!.apparmorProfile).toBeUndefined();
    expect(spec({ apparmor: RD }).process!.apparmorProfile).toBeUndefined();
    expect(spec({ apparmor: localhost('my-profile') }).process!.apparmorProfile).toBe('my-profile');
  });

  it('sets a loaded Localhost profile and refuses one that is not loaded', () => {
    expect(profileOf({ apparmor: localhost('my-profile') })).toBe('my-profile');
    expect(profileOf({ apparmor: localhost('localhost/other') })).toBe('other');
    expect(profileOf({ apparmor_profile: 'localhost/my-profile' })).toBe('my-profile');
    const err = thrown(() => profileOf({ apparmor: localhost('my-prof') }));
    expect(kindOf(err)).toBe('FailedPrecondition');
    expect(err.message).toMatch(/AppArmor profile "my-prof" is not loaded on this host/);
  });

  it('sets nothing for Unconfined, and the structured field wins over the deprecated string', () => {
    expect(profileOf({ apparmor: UNCONFINED })).toBeUndefined();
    expect(profileOf({ apparmor: UNCONFINED, apparmor_profile: 'localhost/my-profile' })).toBeUndefined();
  });

  it('reports a failed load of the default profile', () => {
    const failing = pinnedHost({
      apparmor: appArmorHostAt(root, {
        loadProfile: () => {
          throw Object.assign(new Error('exit 1'), { stderr: Buffer.from('apparmor_parser: Unable to replace profile') });
        },
      }),
    });
    const err = thrown(() => buildContainerSpec(containerInput({ host: failing })));
    expect(kindOf(err)).toBe('FailedPrecondition');
    expect(err.message).toMatch(/cannot load the default AppArmor profile cri-containerd.apparmor.d: apparmor_parser: Unable to replace profile/);
  });

  it('includes the tunables and base abstractions only where the host has them', () => {
    expect(defaultProfileText('p', true, true)).toMatch(/^#include <tunables\/global>\nprofile p .*\n  #include <abstractions\/base>\n/);
    expect(defaultProfileText('p', false, false)).toMatch(/^profile p flags=\(attach_disconnected,mediate_deleted\) \{\n  network,\n/);
  });
});

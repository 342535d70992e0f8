import { capabilitiesFromMask, effectiveCapabilitiesFromStatus, knownCapabilities } from '../../../internal/oci/capabilities';
import { defaultUnixSpec } from '../../../internal/oci/spec';

describe('defaultUnixSpec', () => {
  const spec = defaultUnixSpec('abc', 'k8s.io');

  it('has the runtime-spec 1.0.2 shape runc reads', () => {
    expect(spec.ociVersion).toBe('1.0.2-dev');
    expect(spec.root).toEqual({ path: 'rootfs' });
    expect(spec.process).toMatchObject({ cwd: '/', user: { uid: 0, gid: 0 }, noNewPrivileges: true, rlimits: [{ type: 'RLIMIT_NOFILE', hard: 1024, soft: 1024 }] });
    expect(spec.linux?.cgroupsPath).toBe('/k8s.io/abc');
    expect(spec.linux?.namespaces?.map((n) => n.type)).toEqual(['pid', 'ipc', 'uts', 'mount', 'network']);
    expect(spec.linux?.resources?.devices).toEqual([{ allow: false, access: 'rwm' }]);
    expect(spec.linux?.maskedPaths).toContain('/proc/kcore');
    expect(spec.linux?.readonlyPaths).toContain('/proc/sys');
  });

  it('mounts the pseudo-filesystems, and no /run or cgroup (workload containers add that)', () => {
    expect(spec.mounts?.map((m) => `${m.destination}:${m.type}`)).toEqual([
      '/proc:proc',
      '/dev:tmpfs',
      '/dev/pts:devpts',
      '/dev/shm:tmpfs',
      '/dev/mqueue:mqueue',
      '/sys:sysfs',
    ]);
  });

  it('gives each call its own objects', () => {
    const a = defaultUnixSpec('a', 'ns');
    a.process!.capabilities!.bounding!.push('CAP_SYS_ADMIN');
    a.mounts!.pop();
    const b = defaultUnixSpec('a', 'ns');
    expect(b.process?.capabilities?.bounding).not.toContain('CAP_SYS_ADMIN');
    expect(b.mounts).toHaveLength(6);
  });
});

describe('capabilities', () => {
  it('decodes a CapEff mask', () => {
    expect(capabilitiesFromMask('0000000000000003')).toEqual(['CAP_CHOWN', 'CAP_DAC_OVERRIDE']);
    // All of 0..40 except CAP_SYS_RESOURCE (bit 24): what this sandbox's root has.
    const caps = capabilitiesFromMask('000001fffeffffff');
    expect(caps).toHaveLength(40);
    expect(caps).not.toContain('CAP_SYS_RESOURCE');
    expect(caps).toContain('CAP_CHECKPOINT_RESTORE');
    expect(knownCapabilities()).toHaveLength(41);
  });

  it('reads the CapEff line of a status file', () => {
    expect(effectiveCapabilitiesFromStatus('Name:\tx\nCapPrm:\t0000000000000001\nCapEff:\t0000000000000020\n')).toEqual(['CAP_KILL']);
    expect(() => effectiveCapabilitiesFromStatus('Name: x\n')).toThrow(/CapEff/);
    expect(() => capabilitiesFromMask('zz')).toThrow(/hexadecimal/);
  });
});

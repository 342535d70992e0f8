import { buildContainerSpec } from '../../../internal/cri/opts/container_spec';
import { kindOf } from '../../../internal/errdefs/errors';
import { defaultUnixCapabilities } from '../../../internal/oci/default_spec';
import type { Mount, Spec } from '../../../internal/oci/spec';
import { containerConfig, containerInput, FUSE_DEVICE, mount, namespaceOptions, NULL_DEVICE, pinnedHost, podConfig, resources, RUNTIME } from './fixtures';

const mountAt = (spec: Spec, dst: string): Mount[] => (spec.mounts ?? []).filter((m) => m.destination === dst);
const nsOf = (spec: Spec) => Object.fromEntries((spec.linux?.namespaces ?? []).map((n) => [n.type, n.path ?? '(new)']));

function errorOf(fn: () => unknown): Error & { kind?: string } {
  try {
    fn();
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected an error');
}

describe('buildContainerSpec: process', () => {
  it('runs the image Entrypoint+Cmd in the image WorkingDir with merged env', () => {
    const spec = buildContainerSpec(containerInput());
    expect(spec.ociVersion).toBe('1.0.2-dev');
    expect(spec.root).toEqual({ path: 'rootfs' });
    expect(spec.process?.args).toEqual(['/bin/sh', '-c', 'sleep 1']);
    expect(spec.process?.cwd).toBe('/work');
    // PATH default replaced in place by the image's, HOSTNAME from the pod, image env after.
    expect(spec.process?.env).toEqual(['PATH=/bin', 'HOSTNAME=web-0', 'FOO=image']);
    expect(spec.process?.terminal).toBeUndefined();
    expect(spec.process?.rlimits).toBeUndefined();
    expect(spec.process?.noNewPrivileges).toBe(false);
  });

  it('lets the request override command, args, working dir and env', () => {
    const cfg = containerConfig({
      command: ['/bin/echo'],
      args: ['hello'],
      working_dir: '/tmp',
      envs: [
        { key: 'FOO', value: Buffer.from('request') },
        { key: 'BAR', value: Buffer.from('x=y') },
      ],
      tty: true,
    });
    const spec = buildContainerSpec(containerInput({ containerConfig: cfg }));
    expect(spec.process?.args).toEqual(['/bin/echo', 'hello']);
    expect(spec.process?.cwd).toBe('/tmp');
    expect(spec.process?.terminal).toBe(true);
    expect(spec.process?.env).toEqual(['PATH=/bin', 'TERM=xterm', 'HOSTNAME=web-0', 'FOO=request', 'BAR=x=y']);
  });

  it('uses the node hostname for HOSTNAME when the pod has none, and / when no workdir', () => {
    const spec = buildContainerSpec(containerInput({ sandboxConfig: podConfig({ hostname: '' }), imageConfig: { Cmd: ['/bin/true'] } }));
    expect(spec.process?.env).toContain('HOSTNAME=node-1');
    expect(spec.process?.env?.[0]).toBe('PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin');
    expect(spec.process?.cwd).toBe('/');
  });
});

describe('buildContainerSpec: user', () => {
  it.each([
    ['root by default', {}, undefined, { uid: 0, gid: 0, additionalGids: [0, 10] }],
    ['image User name', {}, 'alice', { uid: 1000, gid: 1000, additionalGids: [10, 29, 1000] }],
    ['image User uid:gid', {}, '65535:65535', { uid: 65535, gid: 65535, additionalGids: [65535] }],
    ['run_as_user wins over image', { run_as_user: { value: '1001' } }, 'alice', { uid: 1001, gid: 100, additionalGids: [29, 100] }],
    ['run_as_user not in passwd', { run_as_user: { value: '4242' } }, undefined, { uid: 4242, gid: 0, additionalGids: [0] }],
    ['run_as_username', { run_as_username: 'bob' }, undefined, { uid: 1001, gid: 100, additionalGids: [29, 100] }],
    ['run_as_user + run_as_group', { run_as_user: { value: '1000' }, run_as_group: { value: '50' } }, undefined, { uid: 1000, gid: 50, additionalGids: [10, 29, 50] }],
    [
      'supplemental groups are added',
      { run_as_user: { value: '1000' }, supplemental_groups: ['7', '10'] },
      undefined,
      { uid: 1000, gid: 1000, additionalGids: [7, 10, 29, 1000] },
    ],
    [
      'Strict policy skips /etc/group',
      { run_as_user: { value: '1000' }, supplemental_groups: ['7'], supplemental_groups_policy: 'Strict' as const },
      undefined,
      { uid: 1000, gid: 1000, additionalGids: [7, 1000] },
    ],
  ])('%s', (_name, sc, imageUser, want) => {
    const spec = buildContainerSpec(
      containerInput({ containerConfig: containerConfig({}, sc), imageConfig: { Cmd: ['/bin/true'], ...(imageUser ? { User: imageUser } : {}) } }),
    );
    expect(spec.process?.user).toEqual(want);
  });

  it('an unknown user name is an InvalidArgument naming the user', () => {
    const err = errorOf(() => buildContainerSpec(containerInput({ containerConfig: containerConfig({}, { run_as_username: 'mallory' }) })));
    expect(kindOf(err)).toBe('InvalidArgument');
    expect(err.message).toMatch(/mallory/);
  });
});

describe('buildContainerSpec: mounts', () => {
  it('binds the sandbox files and keeps the default pseudo-filesystems', () => {
    const spec = buildContainerSpec(containerInput());
    expect(mountAt(spec, '/etc/hosts')).toEqual([{ destination: '/etc/hosts', type: 'bind', source: '/sb/hosts', options: ['rbind', 'rprivate', 'rw'] }]);
    expect(mountAt(spec, '/etc/hostname')[0]?.source).toBe('/sb/hostname');
    expect(mountAt(spec, '/etc/resolv.conf')[0]?.source).toBe('/sb/resolv.conf');
    expect(mountAt(spec, '/dev/shm')).toEqual([{ destination: '/dev/shm', type: 'bind', source: '/sb/shm', options: ['rbind', 'rprivate', 'rw'] }]);
    expect(mountAt(spec, '/sys/fs/cgroup')[0]?.options).toContain('ro');
    expect(mountAt(spec, '/run')).toEqual([]);
    for (const dst of ['/proc', '/dev', '/dev/pts', '/dev/mqueue', '/sys']) expect(mountAt(spec, dst)).toHaveLength(1);
  });

  it('makes sandbox files read-only with a read-only rootfs, and uses the host /dev/shm for host IPC', () => {
    const cfg = containerConfig({}, { readonly_rootfs: true, namespace_options: namespaceOptions({ ipc: 'NODE' }) });
    const spec = buildContainerSpec(containerInput({ containerConfig: cfg }));
    expect(spec.root).toEqual({ path: 'rootfs', readonly: true });
    expect(mountAt(spec, '/etc/hosts')[0]?.options).toEqual(['rbind', 'rprivate', 'ro']);
    expect(mountAt(spec, '/dev/shm')[0]).toMatchObject({ source: '/dev/shm', options: ['rbind', 'rprivate', 'rw'] });
  });

  it('turns CRI mounts into binds with propagation, shallowest first, replacing same-path defaults', () => {
    const cfg = containerConfig({
      mounts: [
        mount({ container_path: '/data/deep/er', host_path: '/srv/deeper', readonly: true }),
        mount({ container_path: '/data', host_path: '/srv/data', propagation: 'PROPAGATION_HOST_TO_CONTAINER' }),
        mount({ container_path: '/etc/hosts', host_path: '/custom/hosts' }),
      ],
    });
    const host = pinnedHost({ propagation: { '/srv/data': 'slave' } });
    const spec = buildContainerSpec(containerInput({ containerConfig: cfg, host }));
    const binds = (spec.mounts ?? []).filter((m) => m.type === 'bind').map((m) => [m.destination, m.source, m.options?.join(',')]);
    expect(binds).toEqual([
      ['/data', '/srv/data', 'rbind,rslave,rw'],
      ['/etc/hosts', '/custom/hosts', 'rbind,rprivate,rw'],
      ['/etc/hostname', '/sb/hostname', 'rbind,rprivate,rw'],
      ['/etc/resolv.conf', '/sb/resolv.conf', 'rbind,rprivate,rw'],
      ['/dev/shm', '/sb/shm', 'rbind,rprivate,rw'],
      ['/data/deep/er', '/srv/deeper', 'rbind,rprivate,ro'],
    ]);
    expect(spec.linux?.rootfsPropagation).toBe('rslave');
  });

  it('bidirectional mounts need a shared host mount and make the rootfs rshared', () => {
    const cfg = containerConfig({ mounts: [mount({ container_path: '/mnt', host_path: '/shared', propagation: 'PROPAGATION_BIDIRECTIONAL' })] });
    const ok = buildContainerSpec(containerInput({ containerConfig: cfg, host: pinnedHost({ propagation: { '/shared': 'shared' } }) }));
    expect(mountAt(ok, '/mnt')[0]?.options).toEqual(['rbind', 'rshared', 'rw']);
    expect(ok.linux?.rootfsPropagation).toBe('rshared');
    const err = errorOf(() => buildContainerSpec(containerInput({ containerConfig: cfg })));
    expect(kindOf(err)).toBe('FailedPrecondition');
    expect(err.message).toMatch(/"\/shared" is not on a shared mount/);
  });

  it('a supplied /dev replaces every default mount under /dev', () => {
    const cfg = containerConfig({ mounts: [mount({ container_path: '/dev', host_path: '/dev' })] });
    const spec = buildContainerSpec(containerInput({ containerConfig: cfg }));
    const devMounts = (spec.mounts ?? []).filter((m) => m.destination === '/dev' || m.destination.startsWith('/dev/'));
    // Only the supplied /dev and the sandbox's /dev/shm bind remain.
    expect(devMounts.map((m) => [m.destination, m.type])).toEqual([
      ['/dev', 'bind'],
      ['/dev/shm', 'bind'],
    ]);
  });

  it.each([
    ['relative host path', { container_path: '/x', host_path: 'srv/x' }, /mounts\[0\]\.host_path "srv\/x" must be an absolute path/],
    ['.. in host path', { container_path: '/x', host_path: '/srv/../etc' }, /mounts\[0\]\.host_path "\/srv\/..\/etc" must not contain "\.\."/],
    ['relative container path', { container_path: 'x', host_path: '/srv' }, /mounts\[0\]\.container_path "x" must be an absolute path/],
    ['.. in container path', { container_path: '/a/../../etc', host_path: '/srv' }, /mounts\[0\]\.container_path .* must not contain "\.\."/],
  ])('rejects a mount with %s', (_name, m, message) => {
    const err = errorOf(() => buildContainerSpec(containerInput({ containerConfig: containerConfig({ mounts: [mount(m)] }) })));
    expect(kindOf(err)).toBe('InvalidArgument');
    expect(err.message).toMatch(message);
  });

  it('gives image volumes their own directories unless a CRI mount covers them', () => {
    const cfg = containerConfig({ mounts: [mount({ container_path: '/covered', host_path: '/srv/c' })] });
    const spec = buildContainerSpec(
      containerInput({ containerConfig: cfg, imageConfig: { Cmd: ['/bin/true'], Volumes: { '/var/lib/data': {}, '/covered/': {} } }, volumesDir: '/root/c0ffee/volumes' }),
    );
    expect(mountAt(spec, '/covered')).toHaveLength(1);
    const vol = mountAt(spec, '/var/lib/data');
    expect(vol).toHaveLength(1);
    expect(vol[0]?.source).toMatch(/^\/root\/c0ffee\/volumes\/[0-9a-f]{32}$/);
  });
});

describe('buildContainerSpec: namespaces', () => {
  it.each([
    ['POD pid', namespaceOptions({ pid: 'POD' }), { network: '/proc/4242/ns/net', ipc: '/proc/4242/ns/ipc', uts: '/proc/4242/ns/uts', pid: '/proc/4242/ns/pid', mount: '(new)' }],
    ['CONTAINER pid', namespaceOptions({ pid: 'CONTAINER' }), { network: '/proc/4242/ns/net', ipc: '/proc/4242/ns/ipc', uts: '/proc/4242/ns/uts', pid: '(new)', mount: '(new)' }],
    ['NODE pid', namespaceOptions({ pid: 'NODE' }), { network: '/proc/4242/ns/net', ipc: '/proc/4242/ns/ipc', uts: '/proc/4242/ns/uts', mount: '(new)' }],
    ['host network and IPC', namespaceOptions({ network: 'NODE', ipc: 'NODE', pid: 'NODE' }), { mount: '(new)' }],
  ])('%s', (_name, ns, want) => {
    const spec = buildContainerSpec(containerInput({ containerConfig: containerConfig({}, { namespace_options: ns }) }));
    expect(nsOf(spec)).toEqual(want);
  });

  it('TARGET joins the target container pid namespace', () => {
    const cfg = containerConfig({}, { namespace_options: namespaceOptions({ pid: 'TARGET', target_id: 'other' }) });
    expect(nsOf(buildContainerSpec(containerInput({ containerConfig: cfg, targetPid: 777 }))).pid).toBe('/proc/777/ns/pid');
    expect(() => buildContainerSpec(containerInput({ containerConfig: cfg }))).toThrow(/target_id "other"/);
  });

  it('adds a cgroup namespace on cgroup v2 for unprivileged containers only', () => {
    expect(nsOf(buildContainerSpec(containerInput({ host: pinnedHost({ cgroupV2: true }) }))).cgroup).toBe('(new)');
    expect(nsOf(buildContainerSpec(containerInput())).cgroup).toBeUndefined();
  });
});

describe('buildContainerSpec: resources and cgroups', () => {
  it('maps CRI resources onto linux.resources', () => {
    const res = resources({
      cpu_period: '100000',
      cpu_quota: '50000',
      cpu_shares: '512',
      cpuset_cpus: '0-1',
      cpuset_mems: '0',
      memory_limit_in_bytes: String(64 * 1024 * 1024),
      hugepage_limits: [{ page_size: '2MB', limit: '4194304' }],
      unified: { 'memory.high': '1000000' },
    });
    const spec = buildContainerSpec(containerInput({ containerConfig: containerConfig({}, {}, res) }));
    expect(spec.linux?.resources).toEqual({
      devices: [{ allow: false, access: 'rwm' }],
      cpu: { period: 100000, quota: 50000, shares: 512, cpus: '0-1', mems: '0' },
      memory: { limit: 67108864, swap: 67108864 },
      unified: { 'memory.high': '1000000' },
    });
    expect(spec.process?.oomScoreAdj).toBe(0);
  });

  it('drops hugepage limits unless disable_hugetlb_controller is false and the host has hugetlb', () => {
    // What kubelet sends on every node: a limit-0 entry per page size.
    const res = resources({ hugepage_limits: [{ page_size: '2MB', limit: '0' }, { page_size: '1GB', limit: '0' }] });
    const build = (disableHugetlbController: boolean, hugetlbControllerAvailable: boolean) =>
      buildContainerSpec(
        containerInput({ containerConfig: containerConfig({}, {}, res), runtime: { ...RUNTIME, disableHugetlbController }, host: pinnedHost({ hugetlbControllerAvailable }) }),
      ).linux?.resources?.hugepageLimits;
    expect(build(true, true)).toBeUndefined();
    expect(build(false, false)).toBeUndefined();
    expect(build(false, true)).toEqual([
      { pageSize: '2MB', limit: 0 },
      { pageSize: '1GB', limit: 0 },
    ]);
  });

  it('keeps an explicit swap limit and leaves swap alone without a swap controller', () => {
    const res = resources({ memory_limit_in_bytes: '100000000', memory_swap_limit_in_bytes: '200000000' });
    expect(buildContainerSpec(containerInput({ containerConfig: containerConfig({}, {}, res) })).linux?.resources?.memory).toEqual({ limit: 100000000, swap: 200000000 });
    const noSwap = buildContainerSpec(
      containerInput({ containerConfig: containerConfig({}, {}, resources({ memory_limit_in_bytes: '100000000' })), host: pinnedHost({ swapControllerAvailable: false }) }),
    );
    expect(noSwap.linux?.resources?.memory).toEqual({ limit: 100000000 });
    const explicitNoSwap = buildContainerSpec(containerInput({ containerConfig: containerConfig({}, {}, res), host: pinnedHost({ swapControllerAvailable: false }) }));
    expect(explicitNoSwap.linux?.resources?.memory).toEqual({ limit: 100000000 });
  });

  it.each([
    ['no restriction', false, 0, '-500', -500],
    ['restricted below the current score', true, 0, '-500', 0],
    ['restricted above the current score', true, 0, '300', 300],
    ['restricted with a positive current score', true, 200, '100', 200],
  ])('oom_score_adj: %s', (_name, restrict, current, requested, want) => {
    const spec = buildContainerSpec(
      containerInput({
        containerConfig: containerConfig({}, {}, resources({ oom_score_adj: requested })),
        runtime: { ...RUNTIME, restrictOomScoreAdj: restrict },
        host: pinnedHost({ oomScoreAdj: current }),
      }),
    );
    expect(spec.process?.oomScoreAdj).toBe(want);
  });

  it.each([
    ['pod cgroup parent (cgroupfs)', '/kubepods/pod1', undefined, false, '/kubepods/pod1/c0ffee'],
    ['runtime default parent', '', '/berth', false, '/berth/c0ffee'],
    ['no parent at all', '', undefined, false, '/k8s.io/c0ffee'],
    ['systemd slice', '/kubepods.slice/kubepods-pod1.slice', undefined, true, 'kubepods-pod1.slice:berth:c0ffee'],
    ['systemd without parent', '', undefined, true, ':berth:c0ffee'],
  ])('cgroupsPath: %s', (_name, podParent, runtimeParent, systemd, want) => {
    const pod = podConfig();
    pod.linux!.cgroup_parent = podParent;
    const spec = buildContainerSpec(containerInput({ sandboxConfig: pod, runtime: { ...RUNTIME, cgroupParent: runtimeParent, systemdCgroup: systemd } }));
    expect(spec.linux?.cgroupsPath).toBe(want);
  });

  it('refuses a non-slice parent with the systemd driver', () => {
    expect(() => buildContainerSpec(containerInput({ runtime: { ...RUNTIME, systemdCgroup: true } }))).toThrow(/must name a systemd slice/);
  });
});

describe('buildContainerSpec: devices', () => {
  it('adds requested devices and allows them in the device cgroup with the access asked (empty is runc\'s to refuse, as under containerd)', () => {
    const cfg = containerConfig({ devices: [{ host_path: '/dev/fuse', container_path: '/dev/myfuse', permissions: 'rw' }, { host_path: '/dev/null', container_path: '/dev/n', permissions: '' }] });
    const spec = buildContainerSpec(containerInput({ containerConfig: cfg }));
    expect(spec.linux?.devices).toEqual([
      { ...FUSE_DEVICE, path: '/dev/myfuse' },
      { ...NULL_DEVICE, path: '/dev/n' },
    ]);
    expect(spec.linux?.resources?.devices).toEqual([
      { allow: false, access: 'rwm' },
      { allow: true, type: 'c', major: 10, minor: 229, access: 'rw' },
      { allow: true, type: 'c', major: 1, minor: 3, access: '' },
    ]);
  });
});

describe('buildContainerSpec: security', () => {
  const caps = (spec: Spec) => spec.process?.capabilities?.bounding;

  it('starts from the default capabilities, no ambient, no masking unless asked', () => {
    const spec = buildContainerSpec(containerInput());
    expect(caps(spec)).toEqual(defaultUnixCapabilities());
    expect(spec.process?.capabilities?.effective).toEqual(defaultUnixCapabilities());
    expect(spec.process?.capabilities?.ambient).toBeUndefined();
    expect(spec.linux?.maskedPaths).toEqual([]);
    expect(spec.linux?.readonlyPaths).toEqual([]);
    expect(spec.linux?.seccomp).toBeUndefined();
  });

  it.each([
    ['add one', { add_capabilities: ['NET_ADMIN'], drop_capabilities: [] }, [...defaultUnixCapabilities(), 'CAP_NET_ADMIN']],
    ['drop one', { add_capabilities: [], drop_capabilities: ['chown'] }, defaultUnixCapabilities().filter((c) => c !== 'CAP_CHOWN')],
    ['drop ALL, add one', { add_capabilities: ['KILL'], drop_capabilities: ['ALL'] }, ['CAP_KILL']],
    ['add ALL, drop one', { add_capabilities: ['ALL'], drop_capabilities: ['SYS_ADMIN'] }, ['CAP_CHOWN', 'CAP_DAC_OVERRIDE', 'CAP_KILL', 'CAP_NET_ADMIN', 'CAP_SETUID', 'CAP_SETGID']],
  ])('capabilities: %s', (_name, capability, want) => {
    const spec = buildContainerSpec(containerInput({ containerConfig: containerConfig({}, { capabilities: { ...capability, add_ambient_capabilities: [] } }) }));
    expect(caps(spec)).toEqual(want);
    expect(spec.process?.capabilities?.permitted).toEqual(want);
  });

  it('privileged: all of berthd capabilities, host devices, writable /sys, no masks, no seccomp', () => {
    const cfg = containerConfig({}, { privileged: true, masked_paths: ['/proc/kcore'], seccomp: { profile_type: 'RuntimeDefault', localhost_ref: '' }, capabilities: { add_capabilities: [], drop_capabilities: ['ALL'], add_ambient_capabilities: [] } });
    const spec = buildContainerSpec(containerInput({ containerConfig: cfg, sandboxConfig: podConfig({}, { privileged: true }) }));
    expect(caps(spec)).toEqual(pinnedHost().capabilities);
    expect(spec.linux?.maskedPaths).toBeUndefined();
    expect(spec.linux?.readonlyPaths).toBeUndefined();
    expect(spec.linux?.seccomp).toBeUndefined();
    expect(spec.linux?.devices).toEqual([NULL_DEVICE, FUSE_DEVICE]);
    expect(spec.linux?.resources?.devices).toEqual([{ allow: true, access: 'rwm' }]);
    expect(mountAt(spec, '/sys')[0]?.options).toEqual(['nosuid', 'noexec', 'nodev', 'rw']);
    expect(mountAt(spec, '/sys/fs/cgroup')[0]?.options).toEqual(['nosuid', 'noexec', 'nodev', 'relatime', 'rw']);
  });

  it('privileged without host devices keeps the deny-all device cgroup', () => {
    const cfg = containerConfig({}, { privileged: true });
    const spec = buildContainerSpec(
      containerInput({ containerConfig: cfg, sandboxConfig: podConfig({}, { privileged: true }), runtime: { ...RUNTIME, privilegedWithoutHostDevices: true } }),
    );
    expect(spec.linux?.devices).toBeUndefined();
    expect(spec.linux?.resources?.devices).toEqual([{ allow: false, access: 'rwm' }]);
  });

  it('refuses a privileged container in an unprivileged pod', () => {
    const err = errorOf(() => buildContainerSpec(containerInput({ containerConfig: containerConfig({}, { privileged: true }) })));
    expect(kindOf(err)).toBe('InvalidArgument');
    expect(err.message).toMatch(/privileged/);
  });

  it('applies no_new_privs and the requested masked/readonly paths', () => {
    const cfg = containerConfig({}, { no_new_privs: true, masked_paths: ['/proc/kcore', '/sys/firmware'], readonly_paths: ['/proc/sys'] });
    const spec = buildContainerSpec(containerInput({ containerConfig: cfg }));
    expect(spec.process?.noNewPrivileges).toBe(true);
    expect(spec.linux?.maskedPaths).toEqual(['/proc/kcore', '/sys/firmware']);
    expect(spec.linux?.readonlyPaths).toEqual(['/proc/sys']);
  });

  it('RuntimeDefault seccomp denies by default and follows the bounding set', () => {
    const spec = buildContainerSpec(containerInput({ containerConfig: containerConfig({}, { seccomp: { profile_type: 'RuntimeDefault', localhost_ref: '' } }) }));
    const seccomp = spec.linux?.seccomp;
    expect(seccomp?.defaultAction).toBe('SCMP_ACT_ERRNO');
    const allowed = new Set((seccomp?.syscalls ?? []).filter((s) => s.action === 'SCMP_ACT_ALLOW' && !s.args).flatMap((s) => s.names));
    for (const name of ['read', 'write', 'execve', 'nanosleep', 'clock_nanosleep', 'wait4', 'openat', 'exit_group', 'chroot']) expect(allowed).toContain(name);
    for (const name of ['mount', 'unshare', 'setns', 'reboot', 'process_vm_readv']) expect(allowed).not.toContain(name);

    const admin = buildContainerSpec(
      containerInput({ containerConfig: containerConfig({}, { seccomp: { profile_type: 'RuntimeDefault', localhost_ref: '' }, capabilities: { add_capabilities: ['SYS_ADMIN'], drop_capabilities: [], add_ambient_capabilities: [] } }) }),
    );
    const adminAllowed = new Set((admin.linux?.seccomp?.syscalls ?? []).filter((s) => s.action === 'SCMP_ACT_ALLOW').flatMap((s) => s.names));
    expect(adminAllowed).toContain('mount');
  });

  it('the deprecated profile path selects the same profiles', () => {
    const viaPath = buildContainerSpec(containerInput({ containerConfig: containerConfig({}, { seccomp_profile_path: 'runtime/default' }) }));
    expect(viaPath.linux?.seccomp?.defaultAction).toBe('SCMP_ACT_ERRNO');
    const unconfined = buildContainerSpec(containerInput({ containerConfig: containerConfig({}, { seccomp_profile_path: 'unconfined' }) }));
    expect(unconfined.linux?.seccomp).toBeUndefined();
  });

  it('Localhost seccomp reads the profile file', () => {
    const profile = { defaultAction: 'SCMP_ACT_ALLOW', syscalls: [{ names: ['mkdir'], action: 'SCMP_ACT_ERRNO' }] };
    const host = pinnedHost({ files: { '/profiles/no-mkdir.json': JSON.stringify(profile) } });
    const cfg = containerConfig({}, { seccomp: { profile_type: 'Localhost', localhost_ref: '/profiles/no-mkdir.json' } });
    expect(buildContainerSpec(containerInput({ containerConfig: cfg, host })).linux?.seccomp).toEqual(profile);

    const missing = containerConfig({}, { seccomp: { profile_type: 'Localhost', localhost_ref: '/profiles/missing.json' } });
    const err = errorOf(() => buildContainerSpec(containerInput({ containerConfig: missing, host })));
    expect(kindOf(err)).toBe('InvalidArgument');
    expect(err.message).toMatch(/\/profiles\/missing.json/);
  });

  it('a Localhost seccomp path naming a file that is not JSON: the error quotes none of it', () => {
    const host = pinnedHost({ files: { '/etc/shadow': 'root:*:20200:0:99999:7:::\n' } });
    const cfg = containerConfig({}, { seccomp: { profile_type: 'Localhost', localhost_ref: '/etc/shadow' } });
    const err = errorOf(() => buildContainerSpec(containerInput({ containerConfig: cfg, host })));
    expect(kindOf(err)).toBe('InvalidArgument');
    expect(err.message).toContain('seccomp profile "/etc/shadow" is not JSON');
    expect(err.message).not.toContain('root');
  });
});

describe('buildContainerSpec: annotations', () => {
  it('writes containerd CRI annotations and passes through only matching ones', () => {
    const cfg = containerConfig({ annotations: { 'example.com/keep': 'c', 'other/drop': 'x' } });
    const pod = podConfig({ annotations: { 'io.katacontainers.config': 'p', 'unrelated': 'u' } });
    const spec = buildContainerSpec(
      containerInput({ containerConfig: cfg, sandboxConfig: pod, runtime: { ...RUNTIME, podAnnotations: ['io.katacontainers.*'], containerAnnotations: ['example.com/*'] } }),
    );
    expect(spec.annotations).toEqual({
      'io.katacontainers.config': 'p',
      'example.com/keep': 'c',
      'io.kubernetes.cri.container-type': 'container',
      'io.kubernetes.cri.sandbox-id': 'sandbox1',
      'io.kubernetes.cri.sandbox-namespace': 'default',
      'io.kubernetes.cri.sandbox-uid': 'uid-1234',
      'io.kubernetes.cri.sandbox-name': 'web',
      'io.kubernetes.cri.container-name': 'app',
      'io.kubernetes.cri.image-name': 'docker.io/library/busybox:latest',
    });
  });
});

describe('buildContainerSpec: result is plain JSON', () => {
  it('round-trips through JSON unchanged', () => {
    const spec = buildContainerSpec(containerInput({ containerConfig: containerConfig({}, { seccomp: { profile_type: 'RuntimeDefault', localhost_ref: '' } }) }));
    expect(JSON.parse(JSON.stringify(spec))).toEqual(spec);
  });
});

import { buildSandboxFiles, DEFAULT_HOSTS, resolvConfFromDns } from '../../../internal/cri/opts/sandbox_files';
import { buildSandboxSpec } from '../../../internal/cri/opts/sandbox_spec';
import { kindOf } from '../../../internal/errdefs/errors';
import type { Spec } from '../../../internal/oci/spec';
import { namespaceOptions, pinnedHost, podConfig, resources, RUNTIME, sandboxInput } from './fixtures';

const nsOf = (spec: Spec) => Object.fromEntries((spec.linux?.namespaces ?? []).map((n) => [n.type, n.path ?? '(new)']));

describe('buildSandboxSpec', () => {
  it('runs the pause image read-only as its image user, in the pod namespaces', () => {
    const spec = buildSandboxSpec(sandboxInput());
    expect(spec.ociVersion).toBe('1.0.2-dev');
    expect(spec.process?.args).toEqual(['/pause']);
    expect(spec.process?.env).toEqual(['PATH=/bin']);
    expect(spec.process?.user).toEqual({ uid: 65535, gid: 65535, additionalGids: [65535] });
    expect(spec.process?.noNewPrivileges).toBe(true);
    expect(spec.process?.rlimits).toBeUndefined();
    expect(spec.root).toEqual({ path: 'rootfs', readonly: true });
    expect(spec.hostname).toBe('web-0');
    expect(nsOf(spec)).toEqual({ pid: '(new)', ipc: '(new)', uts: '(new)', mount: '(new)', network: '/var/run/netns/cni-1234' });
    expect(spec.linux?.cgroupsPath).toBe('/kubepods/besteffort/poduid-1234/sandbox1');
    expect(spec.linux?.resources?.cpu).toEqual({ shares: 2 });
    expect(spec.process?.oomScoreAdj).toBe(-998);
    expect(spec.linux?.maskedPaths).toContain('/proc/kcore');
  });

  it('binds the pod /dev/shm and resolv.conf read-only in place of the default /dev/shm', () => {
    const spec = buildSandboxSpec(sandboxInput());
    expect(spec.mounts?.filter((m) => m.destination === '/dev/shm')).toEqual([{ destination: '/dev/shm', type: 'bind', source: '/sb/shm', options: ['rbind', 'ro'] }]);
    expect(spec.mounts?.filter((m) => m.destination === '/etc/resolv.conf')).toEqual([
      { destination: '/etc/resolv.conf', type: 'bind', source: '/sb/resolv.conf', options: ['rbind', 'ro'] },
    ]);
  });

  it('host network: no network or UTS namespace and no hostname', () => {
    const spec = buildSandboxSpec(sandboxInput({ config: podConfig({}, { namespace_options: namespaceOptions({ network: 'NODE', pid: 'POD' }) }) }));
    expect(nsOf(spec)).toEqual({ pid: '(new)', ipc: '(new)', mount: '(new)' });
    expect(spec.hostname).toBeUndefined();
  });

  it('host PID and IPC: no such namespaces, and the host /dev/shm', () => {
    const spec = buildSandboxSpec(sandboxInput({ config: podConfig({}, { namespace_options: namespaceOptions({ pid: 'NODE', ipc: 'NODE' }) }) }));
    expect(nsOf(spec)).toEqual({ uts: '(new)', mount: '(new)', network: '/var/run/netns/cni-1234' });
    expect(spec.mounts?.find((m) => m.destination === '/dev/shm')?.source).toBe('/dev/shm');
  });

  it('without a netns path yet, asks runc for a new network namespace', () => {
    expect(nsOf(buildSandboxSpec(sandboxInput({ netnsPath: undefined }))).network).toBe('(new)');
  });

  it('clamps the -998 oom score to berthd own when restricted', () => {
    const spec = buildSandboxSpec(sandboxInput({ runtime: { ...RUNTIME, restrictOomScoreAdj: true }, host: pinnedHost({ oomScoreAdj: 0 }) }));
    expect(spec.process?.oomScoreAdj).toBe(0);
  });

  it('copies sysctls, run_as_user/group and supplemental groups', () => {
    const config = podConfig({}, { run_as_user: { value: '1234' }, run_as_group: { value: '5678' }, supplemental_groups: ['9'] });
    config.linux!.sysctls = { 'net.ipv4.ip_unprivileged_port_start': '0', 'kernel.shm_rmid_forced': '1' };
    const spec = buildSandboxSpec(sandboxInput({ config }));
    expect(spec.linux?.sysctl).toEqual({ 'net.ipv4.ip_unprivileged_port_start': '0', 'kernel.shm_rmid_forced': '1' });
    expect(spec.process?.user).toEqual({ uid: 1234, gid: 5678, additionalGids: [9, 5678] });
  });

  it('annotates the pause container as a sandbox, with its pod resources', () => {
    const config = podConfig({ annotations: { 'pass.me/x': '1', 'not.me': '2' } });
    config.linux!.resources = resources({
      cpu_period: '100000',
      cpu_quota: '20000',
      cpu_shares: '204',
      memory_limit_in_bytes: '134217728',
    });
    const spec = buildSandboxSpec(sandboxInput({ config, runtime: { ...RUNTIME, podAnnotations: ['pass.me/*'] } }));
    expect(spec.annotations).toEqual({
      'pass.me/x': '1',
      'io.kubernetes.cri.sandbox-cpu-period': '100000',
      'io.kubernetes.cri.sandbox-cpu-quota': '20000',
      'io.kubernetes.cri.sandbox-cpu-shares': '204',
      'io.kubernetes.cri.sandbox-memory': '134217728',
      'io.kubernetes.cri.container-type': 'sandbox',
      'io.kubernetes.cri.sandbox-id': 'sandbox1',
      'io.kubernetes.cri.sandbox-namespace': 'default',
      'io.kubernetes.cri.sandbox-uid': 'uid-1234',
      'io.kubernetes.cri.sandbox-name': 'web',
      'io.kubernetes.cri.sandbox-log-directory': '/var/log/pods/default_web_uid-1234',
      'io.kubernetes.cri.podsandbox.image-name': 'registry.k8s.io/pause:3.9',
    });
  });

  it('applies RuntimeDefault seccomp unless privileged', () => {
    const sc = { seccomp: { profile_type: 'RuntimeDefault' as const, localhost_ref: '' } };
    expect(buildSandboxSpec(sandboxInput({ config: podConfig({}, sc) })).linux?.seccomp?.defaultAction).toBe('SCMP_ACT_ERRNO');
    expect(buildSandboxSpec(sandboxInput({ config: podConfig({}, { ...sc, privileged: true }) })).linux?.seccomp).toBeUndefined();
  });

  it('mounts the pod netns sysfs read-write for a privileged pod only (its containers share that superblock)', () => {
    const sysOptions = (privileged: boolean) => buildSandboxSpec(sandboxInput({ config: podConfig({}, { privileged }) })).mounts?.find((m) => m.destination === '/sys')?.options;
    expect(sysOptions(false)).toEqual(['nosuid', 'noexec', 'nodev', 'ro']);
    expect(sysOptions(true)).toEqual(['nosuid', 'noexec', 'nodev', 'rw']);
  });

  it('gives pause no cgroup mount, as containerd adds it to workload containers only', () => {
    for (const privileged of [false, true]) {
      const spec = buildSandboxSpec(sandboxInput({ config: podConfig({}, { privileged }) }));
      expect(spec.mounts?.map((m) => m.destination)).not.toContain('/sys/fs/cgroup');
    }
  });

  it('refuses a pause image with nothing to run', () => {
    let err: unknown;
    try {
      buildSandboxSpec(sandboxInput({ imageConfig: {} }));
    } catch (e) {
      err = e;
    }
    expect(kindOf(err)).toBe('InvalidArgument');
    expect((err as Error).message).toMatch(/pause:3.9/);
  });
});

describe('buildSandboxFiles', () => {
  it("uses the pod hostname and leaves resolv.conf to the node's file without DNS config", () => {
    expect(buildSandboxFiles(podConfig(), 'node-1')).toEqual({ hostname: 'web-0\n', resolvConf: undefined });
  });

  it('falls back to the node hostname', () => {
    expect(buildSandboxFiles(podConfig({ hostname: '' }), 'node-1').hostname).toBe('node-1\n');
    expect(DEFAULT_HOSTS).toMatch(/^127\.0\.0\.1\tlocalhost$/m);
  });

  it('writes resolv.conf from the DNS config', () => {
    const dns = { servers: ['10.96.0.10', '8.8.8.8'], searches: ['default.svc.cluster.local', 'svc.cluster.local'], options: ['ndots:5'] };
    expect(buildSandboxFiles(podConfig({ dns_config: dns }), 'node-1').resolvConf).toBe(
      'search default.svc.cluster.local svc.cluster.local\nnameserver 10.96.0.10\nnameserver 8.8.8.8\noptions ndots:5\n',
    );
  });

  it('an empty DNS config means the node file', () => {
    expect(resolvConfFromDns({ servers: [], searches: [], options: [] })).toBe('');
    expect(buildSandboxFiles(podConfig({ dns_config: { servers: [], searches: [], options: [] } }), 'node-1').resolvConf).toBeUndefined();
  });
});

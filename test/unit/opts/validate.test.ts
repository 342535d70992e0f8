import type { ContainerConfig__Output } from '../../../internal/api/gen/runtime/v1/ContainerConfig';
import type { PodSandboxConfig__Output } from '../../../internal/api/gen/runtime/v1/PodSandboxConfig';
import { validateContainerConfig, validateSandboxConfig } from '../../../internal/cri/opts/validate';
import { globMatch } from '../../../internal/cri/opts/values';
import { kindOf } from '../../../internal/errdefs/errors';
import { containerConfig, mount, namespaceOptions, podConfig, resources } from './fixtures';

function rejection(fn: () => void): string {
  try {
    fn();
  } catch (e) {
    expect(kindOf(e)).toBe('InvalidArgument');
    return (e as Error).message;
  }
  throw new Error('expected an InvalidArgument');
}

describe('validateContainerConfig', () => {
  it('accepts a plain config', () => {
    expect(() => validateContainerConfig(containerConfig(), podConfig())).not.toThrow();
  });

  const cases: [string, ContainerConfig__Output, RegExp][] = [
    ['no metadata', containerConfig({ metadata: null }), /metadata is required/],
    ['empty name', containerConfig({ metadata: { name: '', attempt: 0 } }), /metadata\.name is required/],
    ['no image', containerConfig({ image: null }), /image\.image is required/],
    ['empty env key', containerConfig({ envs: [{ key: '', value: Buffer.from('x') }] }), /envs\[0\]\.key/],
    ['env key with =', containerConfig({ envs: [{ key: 'A=B', value: Buffer.from('x') }] }), /envs\[0\]\.key "A=B"/],
    ['relative working dir', containerConfig({ working_dir: 'tmp' }), /working_dir "tmp"/],
    ['empty mount host path', containerConfig({ mounts: [mount({ container_path: '/a', host_path: '' })] }), /mounts\[0\]\.host_path is required/],
    ['relative device path', containerConfig({ devices: [{ host_path: 'dev/null', container_path: '/dev/null', permissions: 'rwm' }] }), /devices\[0\]\.host_path "dev\/null"/],
    ['bad device permissions', containerConfig({ devices: [{ host_path: '/dev/null', container_path: '/dev/null', permissions: 'rwx' }] }), /devices\[0\]\.permissions "rwx"/],
    ['cpu_period too small', containerConfig({}, {}, resources({ cpu_period: '999' })), /cpu_period 999 must be between 1000 and 1000000/],
    ['cpu_period too large', containerConfig({}, {}, resources({ cpu_period: '1000001' })), /cpu_period 1000001/],
    ['negative cpu_quota', containerConfig({}, {}, resources({ cpu_quota: '-5' })), /cpu_quota -5/],
    ['negative cpu_shares', containerConfig({}, {}, resources({ cpu_shares: '-1' })), /cpu_shares -1/],
    ['negative memory', containerConfig({}, {}, resources({ memory_limit_in_bytes: '-1' })), /memory_limit_in_bytes -1 must not be negative/],
    ['oom_score_adj out of range', containerConfig({}, {}, resources({ oom_score_adj: '1001' })), /oom_score_adj 1001/],
    ['non-integer', containerConfig({}, {}, resources({ cpu_shares: '1.5' })), /cpu_shares: "1.5" is not an integer/],
    ['bad hugepage size', containerConfig({}, {}, resources({ hugepage_limits: [{ page_size: '2M', limit: '1' }] })), /hugepage_limits\[0\]\.page_size "2M"/],
    ['bad cpuset', containerConfig({}, {}, resources({ cpuset_cpus: '0-a' })), /cpuset_cpus "0-a"/],
    ['group without user', containerConfig({}, { run_as_group: { value: '5' } }), /run_as_group is set without run_as_user/],
    ['negative uid', containerConfig({}, { run_as_user: { value: '-1' } }), /run_as_user -1 is out of range/],
    ['bad supplemental group', containerConfig({}, { supplemental_groups: ['x'] }), /supplemental_groups\[0\]/],
    // CVE-2024-40635: ids past MaxInt32 are refused, not wrapped (containerd's WithUser bound).
    ['uid past MaxInt32', containerConfig({}, { run_as_user: { value: '2147483648' } }), /run_as_user 2147483648 is out of range/],
    ['uid 2^32-1', containerConfig({}, { run_as_user: { value: '4294967295' } }), /run_as_user 4294967295 is out of range/],
    ['gid past MaxInt32', containerConfig({}, { run_as_user: { value: '1' }, run_as_group: { value: '2147483648' } }), /run_as_group 2147483648 is out of range/],
    ['supplemental group past MaxInt32', containerConfig({}, { supplemental_groups: ['5', '4294967295'] }), /supplemental_groups\[1\] 4294967295 is out of range/],
    ['unknown seccomp type', containerConfig({}, { seccomp: { profile_type: 'Weird' as 'Localhost', localhost_ref: '' } }), /seccomp\.profile_type "Weird" is unknown/],
    ['Localhost without ref', containerConfig({}, { seccomp: { profile_type: 'Localhost', localhost_ref: '' } }), /seccomp\.localhost_ref is required/],
    ['ref without Localhost', containerConfig({}, { seccomp: { profile_type: 'RuntimeDefault', localhost_ref: '/p.json' } }), /localhost_ref must only be set/],
    ['unknown profile path', containerConfig({}, { seccomp_profile_path: 'mine' }), /seccomp_profile_path "mine" is not a known profile/],
    ['masked path with ..', containerConfig({}, { masked_paths: ['/proc/../etc'] }), /masked_paths\[0\]/],
    ['unknown namespace mode', containerConfig({}, { namespace_options: namespaceOptions({ pid: 'HOST' as 'NODE' }) }), /namespace_options\.pid "HOST"/],
    ['TARGET without target', containerConfig({}, { namespace_options: namespaceOptions({ pid: 'TARGET' }) }), /target_id is required/],
  ];
  it.each(cases)('rejects %s', (_name, config, message) => {
    expect(rejection(() => validateContainerConfig(config, podConfig()))).toMatch(message);
  });

  it('accepts ids up to MaxInt32', () => {
    const max = { value: '2147483647' };
    expect(() => validateContainerConfig(containerConfig({}, { run_as_user: max, run_as_group: max, supplemental_groups: ['2147483647'] }))).not.toThrow();
    expect(() => validateSandboxConfig(podConfig({}, { run_as_user: max, run_as_group: max, supplemental_groups: ['2147483647'] }))).not.toThrow();
  });

  it('accepts a quota of -1 and CFS bounds', () => {
    expect(() => validateContainerConfig(containerConfig({}, {}, resources({ cpu_quota: '-1', cpu_period: '1000' })))).not.toThrow();
    expect(() => validateContainerConfig(containerConfig({}, {}, resources({ cpu_period: '1000000' })))).not.toThrow();
  });
});

describe('validateSandboxConfig', () => {
  it('accepts a plain config', () => {
    expect(() => validateSandboxConfig(podConfig())).not.toThrow();
  });

  it('accepts the sysctls of namespaces the pod has its own of', () => {
    const c = podConfig();
    c.linux!.sysctls = { 'net.ipv4.ip_unprivileged_port_start': '0', 'kernel.shm_rmid_forced': '1', 'fs.mqueue.msg_max': '10', 'kernel.domainname': 'd' };
    expect(() => validateSandboxConfig(c)).not.toThrow();
  });

  const withLinux = (mutate: (c: PodSandboxConfig__Output) => void) => {
    const c = podConfig();
    mutate(c);
    return c;
  };
  const cases: [string, PodSandboxConfig__Output, RegExp][] = [
    ['no metadata', podConfig({ metadata: null }), /metadata is required/],
    ['empty name', podConfig({ metadata: { name: '', uid: 'u', namespace: 'n', attempt: 0 } }), /metadata\.name is required/],
    ['cgroup parent with ..', withLinux((c) => (c.linux!.cgroup_parent = '/kubepods/../x')), /cgroup_parent "\/kubepods\/..\/x"/],
    ['blank sysctl key', withLinux((c) => (c.linux!.sysctls = { '': '1' })), /sysctls key ""/],
    ['a sysctl of no namespace of the pod', withLinux((c) => (c.linux!.sysctls = { 'vm.swappiness': '1' })), /"vm.swappiness" is not in a separate kernel namespace/],
    ['a one-word sysctl', withLinux((c) => (c.linux!.sysctls = { s: 'a' })), /"s" is not in a separate kernel namespace/],
    ['kernel.hostname', withLinux((c) => (c.linux!.sysctls = { 'kernel.hostname': 'h' })), /conflicts with the hostname field/],
    [
      'a net sysctl on the host network',
      withLinux((c) => {
        c.linux!.sysctls = { 'net.ipv4.ip_forward': '1' };
        c.linux!.security_context = { ...c.linux!.security_context!, namespace_options: { network: 'NODE', pid: 'POD', ipc: 'POD', target_id: '', userns_options: null } };
      }),
      /"net.ipv4.ip_forward" is not allowed in the host network namespace/,
    ],
    [
      'an IPC sysctl in the host IPC namespace',
      withLinux((c) => {
        c.linux!.sysctls = { 'kernel.shmmax': '1' };
        c.linux!.security_context = { ...c.linux!.security_context!, namespace_options: { network: 'POD', pid: 'POD', ipc: 'NODE', target_id: '', userns_options: null } };
      }),
      /"kernel.shmmax" is not allowed in the host IPC namespace/,
    ],
    ['bad overhead', withLinux((c) => (c.linux!.overhead = resources({ memory_limit_in_bytes: '-2' }))), /overhead\.memory_limit_in_bytes -2/],
    ['group without user', podConfig({}, { run_as_group: { value: '1' } }), /run_as_group is set without run_as_user/],
    ['uid past MaxInt32', podConfig({}, { run_as_user: { value: '2147483648' } }), /run_as_user 2147483648 is out of range/],
    ['gid past MaxInt32', podConfig({}, { run_as_user: { value: '0' }, run_as_group: { value: '4294967295' } }), /run_as_group 4294967295 is out of range/],
    ['negative supplemental group', podConfig({}, { supplemental_groups: ['-1'] }), /supplemental_groups\[0\] -1 is out of range/],
    ['supplemental group past MaxInt32', podConfig({}, { supplemental_groups: ['2147483648'] }), /supplemental_groups\[0\] 2147483648 is out of range/],
    ['unknown seccomp type', podConfig({}, { seccomp: { profile_type: 'X' as 'Localhost', localhost_ref: '' } }), /seccomp\.profile_type "X"/],
    ['hostname over 64 characters', podConfig({ hostname: 'h'.repeat(65) }), /hostname "h+" must be at most 64 characters/],
    ['hostname with a slash', podConfig({ hostname: 'a/b' }), /hostname "a\/b"/],
    ['relative log_directory', podConfig({ log_directory: 'var/log/pods' }), /log_directory "var\/log\/pods"/],
    ['log_directory with ..', podConfig({ log_directory: '/var/log/../etc' }), /log_directory "\/var\/log\/..\/etc"/],
    ['newline in a DNS server', podConfig({ dns_config: { servers: ['1.1.1.1\nnameserver 6.6.6.6'], searches: [], options: [] } }), /dns_config\.servers\[0\]/],
    ['port out of range', podConfig({ port_mappings: [{ protocol: 'TCP', container_port: 70000, host_port: 0, host_ip: '' }] }), /port_mappings\[0\]\.container_port 70000/],
  ];
  it.each(cases)('rejects %s', (_name, config, message) => {
    expect(rejection(() => validateSandboxConfig(config))).toMatch(message);
  });
});

describe('globMatch (annotation patterns)', () => {
  it.each([
    ['io.katacontainers.*', 'io.katacontainers.config.hypervisor', true],
    ['example.com/*', 'example.com/a', true],
    ['*', 'example.com/a', false], // * never crosses "/"
    ['a?c', 'abc', true],
    ['a[bc]d', 'acd', true],
    ['a[^b]d', 'abd', false],
    ['exact', 'exact', true],
    ['exact', 'exactly', false],
  ])('%s vs %s -> %s', (pattern, name, want) => {
    expect(globMatch(pattern, name)).toBe(want);
  });
});

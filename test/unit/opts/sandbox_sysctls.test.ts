// containerd 2.0's enable_unprivileged_ports / enable_unprivileged_icmp in the pause container's
// spec: the two net.ipv4 sysctls for pods with their own netns, unless the pod sets them itself.
import { buildSandboxSpec } from '../../../internal/cri/opts/sandbox_spec';
import { namespaceOptions, podConfig, sandboxInput } from './fixtures';

const ON = { unprivilegedPorts: true, unprivilegedIcmp: true };

describe('sandbox sysctls for unprivileged ports and ICMP', () => {
  it('both options on: any user binds low ports and pings in the pod netns', () => {
    const spec = buildSandboxSpec(sandboxInput({ unprivileged: ON }));
    expect(spec.linux?.sysctl).toEqual({ 'net.ipv4.ip_unprivileged_port_start': '0', 'net.ipv4.ping_group_range': '0 2147483647' });
  });

  it('each option on its own', () => {
    expect(buildSandboxSpec(sandboxInput({ unprivileged: { unprivilegedPorts: true, unprivilegedIcmp: false } })).linux?.sysctl).toEqual({
      'net.ipv4.ip_unprivileged_port_start': '0',
    });
    expect(buildSandboxSpec(sandboxInput({ unprivileged: { unprivilegedPorts: false, unprivilegedIcmp: true } })).linux?.sysctl).toEqual({
      'net.ipv4.ping_group_range': '0 2147483647',
    });
  });

  it('off: only what the pod asks for', () => {
    const config = podConfig();
    config.linux!.sysctls = { 'kernel.shm_rmid_forced': '1' };
    expect(buildSandboxSpec(sandboxInput({ config, unprivileged: { unprivilegedPorts: false, unprivilegedIcmp: false } })).linux?.sysctl).toEqual({
      'kernel.shm_rmid_forced': '1',
    });
    expect(buildSandboxSpec(sandboxInput()).linux?.sysctl).toBeUndefined();
  });

  it('the pod own values win', () => {
    const config = podConfig();
    config.linux!.sysctls = { 'net.ipv4.ip_unprivileged_port_start': '1024', 'net.ipv4.ping_group_range': '1 0', 'kernel.msgmax': '8192' };
    expect(buildSandboxSpec(sandboxInput({ config, unprivileged: ON })).linux?.sysctl).toEqual(config.linux!.sysctls);
  });

  it('host-network pods: the host netns is left alone', () => {
    const config = podConfig({}, { namespace_options: namespaceOptions({ network: 'NODE', pid: 'POD' }) });
    expect(buildSandboxSpec(sandboxInput({ config, unprivileged: ON })).linux?.sysctl).toBeUndefined();
  });
});

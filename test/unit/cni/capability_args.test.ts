// What each plugin of a chain finds in its runtimeConfig for a pod, as containerd's cniNamespaceOpts
// and libcni give it: only the capabilities the plugin declares, from the pod's port mappings,
// bandwidth annotations, annotations, DNS config and cgroup parent.
import { buildPluginConfig } from '../../../internal/cni/chain';
import { capabilityArgs } from '../../../internal/cni/capabilities';
import type { NetworkConfigList, PluginConf, RuntimeConf } from '../../../internal/cni/types';
import { podCniCapabilities } from '../../../internal/cri/opts/cni_capabilities';
import { kindOf } from '../../../internal/errdefs/errors';
import { thrownBy } from '../../harness/thrown';
import { podConfig } from '../opts/fixtures';

const MAX_UINT32 = 4_294_967_295;

const CHAIN: PluginConf[] = [
  { type: 'bridge', bridge: 'cni0' },
  { type: 'portmap', capabilities: { portMappings: true } },
  { type: 'bandwidth', capabilities: { bandwidth: true } },
  { type: 'dnsname', capabilities: { dns: true, aliases: true } },
  { type: 'cgroup-aware', capabilities: { cgroupPath: true, 'io.kubernetes.cri.pod-annotations': true } },
  { type: 'declines', capabilities: { portMappings: false, bandwidth: false, dns: false } },
];
const LIST: NetworkConfigList = { name: 'pods', cniVersion: '1.0.0', disableCheck: false, plugins: CHAIN, source: 'test' };

/** runtimeConfig of each plugin of CHAIN, by plugin type, for the pod. */
function runtimeConfigs(config: ReturnType<typeof podConfig>): Record<string, unknown> {
  const rt: RuntimeConf = { containerId: 'sb1', netns: '/n', ifName: 'eth0', args: [], capabilityArgs: capabilityArgs(podCniCapabilities(config, { strict: true })) };
  return Object.fromEntries(CHAIN.map((p) => [p.type, buildPluginConfig(LIST, p, undefined, rt).runtimeConfig]));
}

const kubeletPod = () =>
  podConfig({
    annotations: { 'kubernetes.io/ingress-bandwidth': '10M', 'kubernetes.io/egress-bandwidth': '2Mi', 'example.com/team': 'a' },
    port_mappings: [
      { protocol: 'TCP', container_port: 80, host_port: 8080, host_ip: '' },
      { protocol: 'UDP', container_port: 53, host_port: 5353, host_ip: '127.0.0.1' },
      { protocol: 'SCTP', container_port: 9, host_port: 0, host_ip: '' }, // no host port: not passed
    ],
    dns_config: { servers: ['10.96.0.10'], searches: ['default.svc.cluster.local', 'svc.cluster.local'], options: ['ndots:5'] },
  });

describe('CNI capability args per plugin', () => {
  it('gives each plugin the capabilities it declares, and only those', () => {
    const byPlugin = runtimeConfigs(kubeletPod());
    expect(byPlugin).toEqual({
      bridge: undefined,
      portmap: {
        portMappings: [
          { hostPort: 8080, containerPort: 80, protocol: 'tcp' },
          { hostPort: 5353, containerPort: 53, protocol: 'udp', hostIP: '127.0.0.1' },
        ],
      },
      bandwidth: { bandwidth: { ingressRate: 10_000_000, ingressBurst: MAX_UINT32, egressRate: 2_097_152, egressBurst: MAX_UINT32 } },
      dnsname: { dns: { servers: ['10.96.0.10'], searches: ['default.svc.cluster.local', 'svc.cluster.local'], options: ['ndots:5'] } },
      'cgroup-aware': {
        cgroupPath: '/kubepods/besteffort/poduid-1234',
        'io.kubernetes.cri.pod-annotations': {
          'kubernetes.io/ingress-bandwidth': '10M',
          'kubernetes.io/egress-bandwidth': '2Mi',
          'example.com/team': 'a',
        },
      },
      declines: undefined,
    });
  });

  it('a plain pod: annotations (even none) and cgroup path only; no ports, bandwidth or dns', () => {
    const byPlugin = runtimeConfigs(podConfig());
    expect(byPlugin.portmap).toBeUndefined();
    expect(byPlugin.bandwidth).toBeUndefined();
    expect(byPlugin.dnsname).toBeUndefined();
    expect(byPlugin['cgroup-aware']).toEqual({ cgroupPath: '/kubepods/besteffort/poduid-1234', 'io.kubernetes.cri.pod-annotations': {} });
  });

  it('no cgroup parent: no cgroupPath', () => {
    const config = podConfig();
    config.linux!.cgroup_parent = '';
    expect(runtimeConfigs(config)['cgroup-aware']).toEqual({ 'io.kubernetes.cri.pod-annotations': {} });
  });

  it('an invalid bandwidth annotation fails the pod (strict), and is left out for teardown', () => {
    const config = podConfig({ annotations: { 'kubernetes.io/ingress-bandwidth': '10 Mbit' } });
    const err = thrownBy(() => podCniCapabilities(config, { strict: true }));
    expect(kindOf(err)).toBe('InvalidArgument');
    expect((err as Error).message).toContain('kubernetes.io/ingress-bandwidth');
    const lenient = podCniCapabilities(config, { strict: false });
    expect(lenient.bandwidth).toBeUndefined();
    expect(lenient.podAnnotations).toEqual({ 'kubernetes.io/ingress-bandwidth': '10 Mbit' });
  });
});

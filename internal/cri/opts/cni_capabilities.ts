// What a pod's CNI plugins are told about it, from its sandbox config, as containerd's
// cniNamespaceOpts: host port mappings, bandwidth from the kubernetes.io/*-bandwidth annotations,
// the pod's annotations, its DNS config and its cgroup parent.
import type { PodSandboxConfig__Output } from '../../api/gen/runtime/v1/PodSandboxConfig';
import { podBandwidth } from '../../cni/bandwidth';
import type { PodCapabilities } from '../../cni/capabilities';
import type { PortMapping } from '../../cni/types';

function portMappings(config: PodSandboxConfig__Output): PortMapping[] {
  return (config.port_mappings ?? [])
    .filter((p) => p.host_port > 0)
    .map((p) => ({
      hostPort: p.host_port,
      containerPort: p.container_port,
      protocol: p.protocol === 'UDP' ? 'udp' : p.protocol === 'SCTP' ? 'sctp' : 'tcp',
      ...(p.host_ip ? { hostIP: p.host_ip } : {}),
    }));
}

export interface CniCapabilityOptions {
  /**
   * Refuse invalid bandwidth annotations (InvalidArgument), as RunPodSandbox does. Otherwise (the
   * teardown of a pod some older berth admitted) they are left out: DEL must not fail on them.
   */
  strict: boolean;
}

export function podCniCapabilities(config: PodSandboxConfig__Output, opts: CniCapabilityOptions): PodCapabilities {
  const annotations = config.annotations ?? {};
  let bandwidth;
  try {
    bandwidth = podBandwidth(annotations);
  } catch (err) {
    if (opts.strict) throw err;
  }
  const dns = config.dns_config;
  return {
    portMappings: portMappings(config),
    podAnnotations: { ...annotations },
    ...(bandwidth === undefined ? {} : { bandwidth }),
    ...(dns ? { dns: { servers: [...(dns.servers ?? [])], searches: [...(dns.searches ?? [])], options: [...(dns.options ?? [])] } } : {}),
    cgroupPath: config.linux?.cgroup_parent ?? '',
  };
}

// The capability args a pod's CNI exec carries, as containerd's cniNamespaceOpts sets them. libcni
// (buildPluginConfig in chain.ts) hands each plugin only those it declares in `capabilities`.
// Values use the CNI conventions' spelling (hostPort, ingressRate, servers...), which Go plugins
// also read for containerd's field names, since Go's JSON decoding ignores case.
import type { BandwidthLimits, DnsCapability, PortMapping } from './types';

/** Well-known capability names (CNI conventions), plus containerd's pod annotations one. */
export const CAPABILITY = {
  portMappings: 'portMappings',
  bandwidth: 'bandwidth',
  dns: 'dns',
  cgroupPath: 'cgroupPath',
  podAnnotations: 'io.kubernetes.cri.pod-annotations',
} as const;

/** What of the pod the capabilities describe. */
export interface PodCapabilities {
  portMappings?: PortMapping[];
  bandwidth?: BandwidthLimits;
  dns?: DnsCapability;
  /** The pod's cgroup parent (CRI linux.cgroup_parent); "" = none. */
  cgroupPath?: string;
  /** The pod's annotations; containerd always passes them (an empty map too). */
  podAnnotations?: Record<string, string>;
  /** Further capability args by name; the named fields above win over these. */
  capabilityArgs?: Record<string, unknown>;
}

export function capabilityArgs(pod: PodCapabilities): Record<string, unknown> {
  const args: Record<string, unknown> = { ...pod.capabilityArgs };
  if (pod.podAnnotations !== undefined) args[CAPABILITY.podAnnotations] = { ...pod.podAnnotations };
  // containerd passes only mappings with a host port, and the capability only when there is one.
  const ports = (pod.portMappings ?? []).filter((p) => p.hostPort > 0);
  if (ports.length > 0) args[CAPABILITY.portMappings] = ports;
  if (pod.bandwidth !== undefined) args[CAPABILITY.bandwidth] = pod.bandwidth;
  if (pod.dns !== undefined) args[CAPABILITY.dns] = pod.dns;
  if (pod.cgroupPath) args[CAPABILITY.cgroupPath] = pod.cgroupPath;
  return args;
}

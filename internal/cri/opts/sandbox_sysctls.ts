// The pause container's sysctls: the pod's own, plus containerd 2.0's enable_unprivileged_ports /
// enable_unprivileged_icmp defaults. net.* sysctls belong to the pod's network namespace, which
// only the sandbox spec sets up, so (as in containerd) only it carries them; containers share them.
import type { PodSandboxConfig__Output } from '../../api/gen/runtime/v1/PodSandboxConfig';

export const UNPRIVILEGED_PORT_START = 'net.ipv4.ip_unprivileged_port_start';
export const PING_GROUP_RANGE = 'net.ipv4.ping_group_range';
/** Every group may open ICMP echo sockets (gid_t's range as the kernel takes it). */
export const ALL_GROUPS = '0 2147483647';

export interface UnprivilegedNetworkOptions {
  /** Any user may bind ports below 1024 in the pod's netns. */
  unprivilegedPorts: boolean;
  /** Any group may ping (ICMP echo sockets). containerd skips this inside a user namespace. */
  unprivilegedIcmp: boolean;
}

export function sandboxSysctls(config: PodSandboxConfig__Output, opts: UnprivilegedNetworkOptions): Record<string, string> {
  const sysctls: Record<string, string> = { ...config.linux?.sysctls };
  // The host's netns is not the pod's to change.
  if (config.linux?.security_context?.namespace_options?.network === 'NODE') return sysctls;
  if (opts.unprivilegedPorts && !Object.hasOwn(sysctls, UNPRIVILEGED_PORT_START)) sysctls[UNPRIVILEGED_PORT_START] = '0';
  if (opts.unprivilegedIcmp && !Object.hasOwn(sysctls, PING_GROUP_RANGE)) sysctls[PING_GROUP_RANGE] = ALL_GROUPS;
  return sysctls;
}

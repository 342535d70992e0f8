// The contents of a pod's /etc/hostname and /etc/resolv.conf (its /etc/hosts is the node's). The
// server writes them under the sandbox directory and bind-mounts them into every container of the pod.
import type { DNSConfig__Output } from '../../api/gen/runtime/v1/DNSConfig';
import type { PodSandboxConfig__Output } from '../../api/gen/runtime/v1/PodSandboxConfig';

export interface SandboxFiles {
  hostname: string;
  /** From the pod's DNS config; undefined when it carries none: the node's own file is copied. */
  resolvConf: string | undefined;
}

/** Written when the node has no /etc/hosts (containerd fails the pod): enough for localhost to resolve. */
export const DEFAULT_HOSTS = [
  '127.0.0.1\tlocalhost',
  '::1\tlocalhost ip6-localhost ip6-loopback',
  'fe00::0\tip6-localnet',
  'ff00::0\tip6-mcastprefix',
  'ff02::1\tip6-allnodes',
  'ff02::2\tip6-allrouters',
  '',
].join('\n');

/**
 * resolv.conf text for a DNS config ("search", "nameserver" per server, "options"), or "" when the
 * config carries nothing (the caller then uses the host's file), as containerd's parseDNSOptions.
 */
export function resolvConfFromDns(dns: DNSConfig__Output | null | undefined): string {
  if (dns === null || dns === undefined) return '';
  let out = '';
  if ((dns.searches ?? []).length > 0) out += `search ${dns.searches.join(' ')}\n`;
  for (const server of dns.servers ?? []) out += `nameserver ${server}\n`;
  if ((dns.options ?? []).length > 0) out += `options ${dns.options.join(' ')}\n`;
  return out;
}

/** The pod's hostname file, and its resolv.conf unless the node's is to be copied (containerd's order). */
export function buildSandboxFiles(config: PodSandboxConfig__Output, nodeHostname: string): SandboxFiles {
  const resolv = resolvConfFromDns(config.dns_config);
  return {
    hostname: `${config.hostname || nodeHostname}\n`,
    resolvConf: resolv === '' ? undefined : resolv,
  };
}

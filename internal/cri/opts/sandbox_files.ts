// The contents of a pod's /etc/hostname, /etc/hosts and /etc/resolv.conf. The server writes them
// under the sandbox directory and bind-mounts them into every container of the pod.
import type { DNSConfig__Output } from '../../api/gen/runtime/v1/DNSConfig';
import type { PodSandboxConfig__Output } from '../../api/gen/runtime/v1/PodSandboxConfig';

export interface SandboxFiles {
  hostname: string;
  hosts: string;
  resolvConf: string;
}

export interface HostFiles {
  /** The node's hostname (used when the pod sets none). */
  hostname: string;
  /** The host's /etc/hosts text; containerd copies it. Absent: a minimal localhost table. */
  hosts?: string;
  /** The host's /etc/resolv.conf text, used when the pod has no DNS config. */
  resolvConf: string;
}

/** Written when the host's /etc/hosts cannot be read: enough for localhost to resolve. */
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

export function buildSandboxFiles(config: PodSandboxConfig__Output, host: HostFiles): SandboxFiles {
  const resolv = resolvConfFromDns(config.dns_config);
  return {
    hostname: `${config.hostname || host.hostname}\n`,
    hosts: host.hosts ?? DEFAULT_HOSTS,
    resolvConf: resolv === '' ? host.resolvConf : resolv,
  };
}

// Which registry hosts may see a pull's credentials: only the registry they are for. That is the
// host named by AuthConfig.server_address (as containerd's ParseAuth checks it), else the image's
// own registry — its domain, or the upstream `server` its hosts.toml names — never a hosts.toml
// mirror on another host. (containerd hands credentials to any host when server_address is empty;
// berth does not.)
import { invalidArgument } from '../../errdefs/errors';
import type { RegistryHost } from './hosts';

/** Docker Hub answers under several names; credentials for one are credentials for all. */
const DOCKER_HUB = new Set(['docker.io', 'index.docker.io', 'registry-1.docker.io']);

/** host[:port] lowercased, https's default port dropped, Docker Hub's names folded into one. */
export function canonicalHost(host: string): string {
  const h = host.toLowerCase().replace(/:443$/, '');
  return DOCKER_HUB.has(h) ? 'docker.io' : h;
}

/**
 * The host a server_address names. Kubelet and crictl send it with or without a scheme and path:
 * "https://index.docker.io/v1/", "myreg.example:5000", "myreg.example:5000/team".
 */
export function serverAddressHost(address: string): string {
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(address) ? address : `https://${address}`;
  let host = '';
  try {
    host = new URL(withScheme).host;
  } catch {
    // reported below
  }
  if (!host) throw invalidArgument(`auth server_address ${JSON.stringify(address)}: not a registry host or URL`);
  return canonicalHost(host);
}

export class CredentialScope {
  private readonly domain: string;
  private readonly target: string;

  /** `domain` is the image reference's registry; `serverAddress` the AuthConfig's, if any. */
  constructor(domain: string, serverAddress?: string) {
    this.domain = canonicalHost(domain);
    this.target = serverAddress ? serverAddressHost(serverAddress) : this.domain;
  }

  /** Whether credentials may be sent to `host`, one of the resolved hosts of the image's domain. */
  allows(host: RegistryHost): boolean {
    if (canonicalHost(host.host) === this.target) return true;
    // The domain's upstream (hosts.toml `server`, or its default endpoint) stands for the domain.
    return !host.mirror && this.target === this.domain;
  }
}

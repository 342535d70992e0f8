// Which resolved registry hosts a pull's credentials may go to (server_address forms, Docker Hub's
// aliases, hosts.toml mirrors versus the upstream server).
import { CredentialScope, serverAddressHost } from '../../../internal/images/pull/credential_scope';
import { defaultHost, parseHostsToml, type RegistryHost } from '../../../internal/images/pull/hosts';

const hostsOf = (domain: string, toml: string): RegistryHost[] => parseHostsToml(toml, domain, 'hosts.toml');

describe('credential scope', () => {
  it('reads server_address with or without scheme and path, folding Docker Hub names', () => {
    expect(serverAddressHost('https://index.docker.io/v1/')).toBe('docker.io');
    expect(serverAddressHost('registry-1.docker.io')).toBe('docker.io');
    expect(serverAddressHost('Myreg.Example:5000/team')).toBe('myreg.example:5000');
    expect(serverAddressHost('http://10.0.0.5:443')).toBe('10.0.0.5');
    expect(() => serverAddressHost('https://')).toThrow(/server_address/);
  });

  it('without server_address: the domain and its upstream server, never a mirror on another host', () => {
    const [mirror, sameHostMirror, server] = hostsOf(
      'myreg.example',
      'server = "https://10.0.0.5:5000"\n[host."https://mirror.example"]\n[host."https://myreg.example/base"]\n',
    );
    const scope = new CredentialScope('myreg.example');
    expect(scope.allows(mirror)).toBe(false);
    expect(scope.allows(sameHostMirror)).toBe(true);
    expect(scope.allows(server)).toBe(true);
    expect(new CredentialScope('docker.io').allows(defaultHost('docker.io'))).toBe(true);
  });

  it('with server_address: only the host it names (the upstream too when it names the domain)', () => {
    const [mirror, server] = hostsOf('docker.io', '[host."http://127.0.0.2:5000"]\n');
    const toHub = new CredentialScope('docker.io', 'https://index.docker.io/v1/');
    expect(toHub.allows(server)).toBe(true);
    expect(toHub.allows(mirror)).toBe(false);
    const toMirror = new CredentialScope('docker.io', '127.0.0.2:5000');
    expect(toMirror.allows(mirror)).toBe(true);
    expect(toMirror.allows(server)).toBe(false);
    const elsewhere = new CredentialScope('docker.io', 'quay.io');
    expect([mirror, server].some((h) => elsewhere.allows(h))).toBe(false);
  });
});

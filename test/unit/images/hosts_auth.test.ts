// hosts.toml resolution (real files in a temp config_path) and WWW-Authenticate parsing.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveHosts } from '../../../internal/images/pull/hosts';
import { parseChallenge } from '../../../internal/images/pull/auth';

describe('registry hosts', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'berth-hosts-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const write = (domainDir: string, text: string) => {
    mkdirSync(join(dir, domainDir), { recursive: true });
    writeFileSync(join(dir, domainDir, 'hosts.toml'), text);
  };
  const brief = (domain: string) =>
    resolveHosts(dir, domain).map((h) => ({ url: `${h.scheme}://${h.host}${h.path}`, caps: [...h.capabilities].sort(), skip: h.skipVerify }));

  it('defaults: docker.io -> registry-1.docker.io, localhost over http, others https', () => {
    expect(brief('docker.io')).toEqual([{ url: 'https://registry-1.docker.io/v2', caps: ['pull', 'push', 'resolve'], skip: false }]);
    expect(brief('localhost:5000')[0].url).toBe('http://localhost:5000/v2');
    expect(brief('127.0.0.1:5000')[0].url).toBe('http://127.0.0.1:5000/v2');
    expect(brief('quay.io')[0].url).toBe('https://quay.io/v2');
    expect(resolveHosts(undefined, 'quay.io').length).toBe(1);
  });

  it('mirrors in file order, then server', () => {
    write(
      'registry.k8s.io',
      `server = "https://registry.k8s.io"
[host."http://127.0.0.1:5000"]
  capabilities = ["pull", "resolve"]
[host."https://mirror.example.com/base"]
  capabilities = ["pull"]
  skip_verify = true
[host."https://raw.example.com/custom/path"]
  override_path = true
`,
    );
    expect(brief('registry.k8s.io')).toEqual([
      { url: 'http://127.0.0.1:5000/v2', caps: ['pull', 'resolve'], skip: false },
      { url: 'https://mirror.example.com/base/v2', caps: ['pull'], skip: true },
      { url: 'https://raw.example.com/custom/path', caps: ['pull', 'push', 'resolve'], skip: false },
      { url: 'https://registry.k8s.io/v2', caps: ['pull', 'push', 'resolve'], skip: false },
    ]);
  });

  it('host_port_ directories, _default, and the domain default when server is absent', () => {
    write('myreg.local_5000_', '[host."http://127.0.0.1:6000"]\n');
    write('_default', '[host."http://127.0.0.1:7000"]\n  capabilities = ["pull","resolve"]\n');
    expect(brief('myreg.local:5000').map((h) => h.url)).toEqual(['http://127.0.0.1:6000/v2', 'https://myreg.local:5000/v2']);
    expect(brief('docker.io').map((h) => h.url)).toEqual(['http://127.0.0.1:7000/v2', 'https://registry-1.docker.io/v2']);
  });

  it('a broken hosts.toml is InvalidArgument naming the file', () => {
    write('bad.io', 'server = ');
    expect(() => resolveHosts(dir, 'bad.io')).toThrow(/bad\.io\/hosts\.toml/);
    write('bad2.io', '[host."ftp://x"]\n');
    expect(() => resolveHosts(dir, 'bad2.io')).toThrow(/unsupported scheme ftp:/);
    write('bad3.io', '[host."http://x"]\n  capabilities = ["fly"]\n');
    expect(() => resolveHosts(dir, 'bad3.io')).toThrow(/capabilities/);
  });
});

describe('WWW-Authenticate', () => {
  it('parses bearer and basic challenges', () => {
    expect(
      parseChallenge('Bearer realm="https://auth.docker.io/token",service="registry.docker.io",scope="repository:library/busybox:pull"'),
    ).toEqual({
      scheme: 'bearer',
      params: { realm: 'https://auth.docker.io/token', service: 'registry.docker.io', scope: 'repository:library/busybox:pull' },
    });
    expect(parseChallenge('Basic realm="Registry Realm"')).toEqual({ scheme: 'basic', params: { realm: 'Registry Realm' } });
    expect(parseChallenge('Bearer realm=https://x/token, service=svc')?.params).toEqual({ realm: 'https://x/token', service: 'svc' });
  });
});

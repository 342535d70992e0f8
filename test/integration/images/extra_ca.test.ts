// The operator's NODE_EXTRA_CA_CERTS is trusted for registry TLS although bin/berthd keeps it from
// Node's start-up (issue 16; internal/images/pull/extra_ca.ts): the registry transport reads the
// file itself, at the first https request. An https registry front with a self-signed certificate
// stands for a registry only the operator's CA vouches for; its hosts.toml names no `ca`.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testImages } from '../../harness/images';
import { pushImage, selfSignedCert, startRegistry, startRegistryFront, type RegistryFront, type RunningRegistry } from '../../harness/registry';
import { imagesEnv, type ImagesEnv } from './env';

jest.setTimeout(120_000);

describe("registry TLS trusts the operator's NODE_EXTRA_CA_CERTS, read at the first pull", () => {
  let registry: RunningRegistry;
  let front: RegistryFront;
  let dir: string;
  let certFile: string;
  let env: ImagesEnv | undefined;
  const saved = process.env.NODE_EXTRA_CA_CERTS;

  /** A fresh images library whose hosts.toml sends the front's domain over https, with no `ca`. */
  const pullFromFront = () => {
    env?.close();
    env = imagesEnv({ registryConfigPath: join(dir, 'certs.d') });
    return env.images.pull(`${front.host}/team/app:1`);
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'berth-extra-ca-'));
    registry = await startRegistry();
    await pushImage(registry.url, (await testImages()).pauseOci, 'team/app:1');
    const cert = selfSignedCert(dir);
    certFile = cert.certFile;
    front = await startRegistryFront({ upstream: registry.url, tls: { cert: cert.cert, key: cert.key } });
    mkdirSync(join(dir, 'certs.d', front.host), { recursive: true });
    writeFileSync(join(dir, 'certs.d', front.host, 'hosts.toml'), `server = "${front.url}"\n`);
  });
  afterEach(() => {
    env?.close();
    env = undefined;
    if (saved === undefined) delete process.env.NODE_EXTRA_CA_CERTS;
    else process.env.NODE_EXTRA_CA_CERTS = saved;
    jest.restoreAllMocks();
  });
  afterAll(async () => {
    await front?.close();
    await registry?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('pulls over https when the CA is only in the NODE_EXTRA_CA_CERTS file', async () => {
    process.env.NODE_EXTRA_CA_CERTS = certFile;
    const record = await pullFromFront();
    expect(record.name).toBe(`${front.host}/team/app:1`);
    expect(front.seen.some((r) => r.scheme === 'https' && /\/manifests\//.test(r.path))).toBe(true);
  });

  it('refuses the same registry without it: the certificate is not trusted', async () => {
    delete process.env.NODE_EXTRA_CA_CERTS;
    await expect(pullFromFront()).rejects.toThrow(/certificate/i);
  });

  it('a file that cannot be read is warned of once, as Node does, and the pull goes on with the default CAs', async () => {
    const missing = join(dir, 'no-such-ca.pem');
    process.env.NODE_EXTRA_CA_CERTS = missing;
    const warn = jest.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    await expect(pullFromFront()).rejects.toThrow(/certificate/i);
    await expect(pullFromFront()).rejects.toThrow(/certificate/i);
    const about = warn.mock.calls.filter(([w]) => String(w).includes(missing));
    expect(about).toHaveLength(1);
    expect(String(about[0]![0])).toMatch(/^Ignoring extra certs from `.*no-such-ca\.pem`, load failed: ENOENT/);
  });
});

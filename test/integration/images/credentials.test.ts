// Registry credentials go only where they belong (issue 13, item 5): recording fronts on other
// loopback hosts (127.0.0.2, .3) stand for a hosts.toml mirror, blob storage a registry redirects
// to, and an https registry that redirects to plain http on its own host:port. Each test asserts
// on the Authorization headers every front received. The last one goes through a real berthd, so
// the CRI's AuthConfig.server_address is honoured end to end.
import { status as GrpcStatus } from '@grpc/grpc-js';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { kindOf } from '../../../internal/errdefs/errors';
import { callError, criClient } from '../../harness/cri_client';
import { startBerthd } from '../../harness/daemon';
import { testImages } from '../../harness/images';
import {
  pushImage,
  selfSignedCert,
  startRegistry,
  startRegistryFront,
  type FrontOptions,
  type RegistryFront,
  type RunningRegistry,
  type SeenRequest,
} from '../../harness/registry';
import { imagesEnv, type ImagesEnv } from './env';

jest.setTimeout(120_000);

const USER = { username: 'berth', password: 's3cret' };
const BASIC = `Basic ${Buffer.from('berth:s3cret').toString('base64')}`;
const isBlobGet = (r: SeenRequest) => r.method === 'GET' && /\/blobs\/sha256:/.test(r.path);
const authorizations = (front: RegistryFront) => [...new Set(front.seen.map((r) => r.authorization ?? '(none)'))].sort();

describe('registry credentials go only to the registry they are for', () => {
  let registry: RunningRegistry;
  let dir: string;
  let env: ImagesEnv | undefined;
  let fronts: RegistryFront[] = [];

  const front = async (opts: Omit<FrontOptions, 'upstream'>) => {
    const f = await startRegistryFront({ upstream: registry.url, ...opts });
    fronts.push(f);
    return f;
  };
  /** An images library whose config_path holds `toml` as the hosts.toml of `domain`. */
  const withHostsToml = (domain: string, toml: string): ImagesEnv => {
    const configPath = join(dir, 'certs.d');
    mkdirSync(join(configPath, domain), { recursive: true });
    writeFileSync(join(configPath, domain, 'hosts.toml'), toml);
    env = imagesEnv({ registryConfigPath: configPath });
    return env;
  };
  /** An images library whose hosts.toml for `reg` lists `mirror` first. */
  const withMirror = (reg: RegistryFront, mirror: RegistryFront): ImagesEnv =>
    withHostsToml(reg.host, `server = "${reg.url}"\n\n[host."${mirror.url}"]\n  capabilities = ["pull", "resolve"]\n`);

  beforeAll(async () => {
    registry = await startRegistry();
    await pushImage(registry.url, (await testImages()).pauseOci, 'team/app:1');
  });
  afterAll(async () => {
    await registry?.stop();
  });
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'berth-creds-'));
  });
  afterEach(async () => {
    for (const f of fronts) await f.close();
    fronts = [];
    env?.close();
    env = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  it('a hosts.toml mirror on another host asking for basic auth never gets them; the registry does', async () => {
    const reg = await front({ basic: USER });
    const mirror = await front({ address: '127.0.0.2', basic: USER }); // would serve anyone who pays
    const images = withMirror(reg, mirror);
    const record = await images.images.pull(`${reg.host}/team/app:1`, { auth: USER });
    expect(record.name).toBe(`${reg.host}/team/app:1`);
    expect(mirror.seen.length).toBeGreaterThan(0); // it was asked first
    expect(authorizations(mirror)).toEqual(['(none)']);
    expect(authorizations(reg)).toContain(BASIC);
  });

  it("a mirror's bearer realm gets an anonymous token request, and the mirror only its own token", async () => {
    const reg = await front({ basic: USER });
    const mirror = await front({ address: '127.0.0.2', bearer: { token: 'mirror-token' } });
    const images = withMirror(reg, mirror);
    await images.images.pull(`${reg.host}/team/app:1`, { auth: USER });
    expect(mirror.seen.some((r) => r.path.startsWith('/token'))).toBe(true);
    expect(authorizations(mirror)).toEqual(['(none)', 'Bearer mirror-token']);
    expect(reg.seen).toEqual([]); // the mirror served everything
  });

  it('server_address decides: the host it names gets the credentials, a host it does not name gets none', async () => {
    const reg = await front({ basic: USER });
    const mirror = await front({ address: '127.0.0.2', basic: USER });
    const images = withMirror(reg, mirror);
    const ref = `${reg.host}/team/app:1`;

    const elsewhere = { ...USER, server_address: 'https://elsewhere.example/v1/' };
    const denied = await images.images.pull(ref, { auth: elsewhere }).catch((e: unknown) => e);
    expect(kindOf(denied)).toBe('PermissionDenied');
    expect(authorizations(mirror)).toEqual(['(none)']);
    expect(authorizations(reg)).toEqual(['(none)']);

    await images.images.pull(ref, { auth: { ...USER, server_address: mirror.host } });
    expect(authorizations(mirror)).toEqual(['(none)', BASIC]);
    expect(authorizations(reg)).toEqual(['(none)']);
  });

  it('blobs redirected to storage on another host: no credentials, no registry token there, no storage token back', async () => {
    const storage = await front({ address: '127.0.0.3', bearer: { token: 'storage-token' } });
    const reg = await front({
      bearer: { token: 'registry-token', ...USER },
      redirect: (r) => (isBlobGet(r) && r.authorization !== undefined ? `${storage.url}${r.path}` : undefined),
    });
    const images = imagesEnv(); // 127.0.0.1:<port> is plain http by default
    env = images;
    await images.images.pull(`${reg.host}/team/app:1`, { auth: USER });
    expect(storage.seen.filter(isBlobGet).length).toBeGreaterThan(0);
    // Storage's token was fetched anonymously, and nothing of the registry's reached storage.
    expect(authorizations(storage)).toEqual(['(none)', 'Bearer storage-token']);
    expect(authorizations(reg)).toEqual(['(none)', BASIC, 'Bearer registry-token']);
  });

  it('an https registry redirecting to http on its own host:port: the plain hop carries no credentials', async () => {
    const { certFile, cert, key } = selfSignedCert(dir);
    const reg = await front({
      tls: { cert, key },
      basic: USER,
      guard: (r) => r.scheme === 'https',
      redirect: (r, self) => (r.scheme === 'https' && isBlobGet(r) ? `http://${self.host}${r.path}` : undefined),
    });
    const images = withHostsToml(reg.host, `server = "${reg.url}"\nca = "${certFile}"\n`);
    const record = await images.images.pull(`${reg.host}/team/app:1`, { auth: USER });
    expect(record.name).toBe(`${reg.host}/team/app:1`);
    const plain = reg.seen.filter((r) => r.scheme === 'http');
    expect(plain.length).toBeGreaterThan(0);
    expect(plain.filter((r) => r.authorization !== undefined)).toEqual([]);
    expect(reg.seen.some((r) => r.scheme === 'https' && r.authorization === BASIC)).toBe(true);
  });

  it('an https registry naming a plain-http token realm: the credentials are refused to it', async () => {
    const { certFile, cert, key } = selfSignedCert(dir);
    const realm = (self: { host: string }) => `http://${self.host}/token`;
    const reg = await front({ tls: { cert, key }, bearer: { token: 'tok', ...USER, realm } });
    const images = withHostsToml(reg.host, `server = "${reg.url}"\nca = "${certFile}"\n`);
    const err = await images.images.pull(`${reg.host}/team/app:1`, { auth: USER }).catch((e: unknown) => e);
    expect(kindOf(err)).toBe('PermissionDenied');
    expect((err as Error).message).toContain('plain http');
    expect(reg.seen.filter((r) => r.scheme === 'http')).toEqual([]);
    expect(authorizations(reg)).toEqual(['(none)']);
  });

  it('through berthd: PullImage honours AuthConfig.server_address', async () => {
    const reg = await front({ basic: USER });
    const configPath = join(dir, 'certs.d');
    mkdirSync(join(configPath, reg.host), { recursive: true });
    writeFileSync(join(configPath, reg.host, 'hosts.toml'), `server = "${reg.url}"\n`);
    const daemon = await startBerthd({ configToml: `[registry]\nconfig_path = "${configPath}"\n` });
    const client = criClient(daemon.socket);
    try {
      const image = { image: `${reg.host}/team/app:1` };
      const denied = await callError(client.image.PullImage({ image, auth: { ...USER, server_address: 'quay.io' } }));
      expect(denied.code).toBe(GrpcStatus.PERMISSION_DENIED);
      expect(authorizations(reg)).toEqual(['(none)']);
      const { image_ref } = await client.image.PullImage({ image, auth: { ...USER, server_address: `http://${reg.host}` } });
      expect(image_ref).toMatch(/^sha256:/);
      expect(authorizations(reg)).toEqual(['(none)', BASIC]);
    } finally {
      client.close();
      await daemon.stop();
    }
  });
});

// Pulling from a real registry (Debian's docker-registry on loopback), through our own client.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pushBlob, pushImage, pushManifest, readOciArchive, startRegistry, type RunningRegistry } from '../../harness/registry';
import { testImages } from '../../harness/images';
import { MediaType } from '../../../internal/images/oci';
import { kindOf } from '../../../internal/errdefs/errors';
import type { Descriptor } from '../../../internal/content/types';
import { imagesEnv, type ImagesEnv } from './env';
import { startProxy } from './registry_proxy';
import { sha, tinyImage } from './fixtures';
import { until } from '../recovery/probes';

interface Facts {
  manifest: Descriptor;
  config: Descriptor;
  layers: Descriptor[];
}

async function factsOf(archive: string): Promise<Facts> {
  const { index, blobs } = await readOciArchive(archive);
  const manifest = (JSON.parse(index.toString()) as { manifests: Descriptor[] }).manifests[0];
  const m = JSON.parse((blobs.get(manifest.digest) as Buffer).toString()) as { config: Descriptor; layers: Descriptor[] };
  return { manifest, config: m.config, layers: m.layers };
}

/** A proxy `hold` for GETs of one blob: `reached` once one arrives, held until `release()`. */
function holdBlob(digest: string): { hold: (path: string) => Promise<void> | undefined; reached: Promise<void>; release: () => void } {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let arrived!: () => void;
  const reached = new Promise<void>((resolve) => (arrived = resolve));
  const hold = (path: string) => {
    if (!path.endsWith(`/blobs/${digest}`)) return undefined;
    arrived();
    return released;
  };
  return { hold, reached, release };
}

describe('pull from a registry', () => {
  let registry: RunningRegistry;
  let busybox: Facts;
  let pause: Facts;
  let env: ImagesEnv;
  let extra: (() => Promise<void> | void)[] = [];

  beforeAll(async () => {
    const paths = await testImages();
    registry = await startRegistry();
    busybox = await factsOf(paths.busyboxOci);
    pause = await factsOf(paths.pauseOci);
    await pushImage(registry.url, paths.busyboxOci, 'library/busybox:latest');
    await pushImage(registry.url, paths.pauseOci, 'pause:3.9');
  });
  afterAll(async () => {
    await registry?.stop();
  });
  beforeEach(() => {
    env = imagesEnv();
  });
  afterEach(async () => {
    for (const undo of extra.reverse()) await undo();
    extra = [];
    env.close();
  });

  it('pulls by tag: records the image, verifies every blob, calls onLayer and unpack', async () => {
    const ref = `${registry.host}/library/busybox:latest`;
    const layersSeen: [number, string][] = [];
    const unpacked: string[][] = [];
    const record = await env.images.pull(ref, {
      onLayer: (i, d) => void layersSeen.push([i, d.digest]),
      unpack: async (img) => void unpacked.push(img.names),
    });
    expect(record).toMatchObject({ name: ref, configDigest: busybox.config.digest, target: { digest: busybox.manifest.digest } });
    expect(layersSeen).toEqual(busybox.layers.map((l, i) => [i, l.digest]));
    expect(unpacked).toEqual([[ref]]);
    expect(env.blobs()).toEqual([busybox.manifest.digest, busybox.config.digest, ...busybox.layers.map((l) => l.digest)].sort());

    const img = await env.images.get(ref);
    expect(img.id).toBe(busybox.config.digest);
    expect(img.repoTags).toEqual([ref]);
    expect(img.repoDigests).toEqual([]); // a pull by tag records the tag; the CRI's PullImage adds the repo digest name
    expect(img.size).toBe(busybox.manifest.size + busybox.config.size + busybox.layers.reduce((s, l) => s + l.size, 0));
    expect(img.config.env.some((e) => e.startsWith('PATH='))).toBe(true);
    // Lookups by ID and by ID prefix find the same image.
    expect((await env.images.get(busybox.config.digest)).repoTags).toEqual([ref]);
    expect((await env.images.get(busybox.config.digest.slice(7, 19))).id).toBe(busybox.config.digest);
    expect(env.ingests()).toEqual([]);
  });

  it('pulls by digest: the name is the digest reference, no repo tag', async () => {
    const ref = `${registry.host}/library/busybox:ignored@${busybox.manifest.digest}`;
    const record = await env.images.pull(ref);
    expect(record.name).toBe(`${registry.host}/library/busybox@${busybox.manifest.digest}`);
    const img = await env.images.get(record.name);
    expect(img.repoTags).toEqual([]);
    expect(img.repoDigests).toEqual([record.name]);
  });

  it('pulls an index and takes only the linux/amd64 manifest', async () => {
    // The "arm64" entry is the pause manifest: present in the registry, never fetched by us.
    await pushImage(registry.url, (await testImages()).pauseOci, 'multi:pause');
    await pushImage(registry.url, (await testImages()).busyboxOci, 'multi:busybox');
    const index = Buffer.from(
      JSON.stringify({
        schemaVersion: 2,
        mediaType: MediaType.ociIndex,
        manifests: [
          { ...pause.manifest, annotations: undefined, platform: { os: 'linux', architecture: 'arm64', variant: 'v8' } },
          { ...busybox.manifest, annotations: undefined, platform: { os: 'linux', architecture: 'amd64' } },
        ],
      }),
    );
    const indexDigest = await pushManifest(registry.url, 'multi', 'v1', MediaType.ociIndex, index);
    const record = await env.images.pull(`${registry.host}/multi:v1`);
    expect(record.target).toEqual({ mediaType: MediaType.ociIndex, digest: indexDigest, size: index.length });
    expect(record.configDigest).toBe(busybox.config.digest);
    expect(await env.content.has(pause.config.digest)).toBe(false);
    expect(await env.content.has(pause.manifest.digest)).toBe(false);
    const img = await env.images.get(`${registry.host}/multi:v1`);
    expect(img.repoTags).toEqual([`${registry.host}/multi:v1`]);
    // GC keeps every blob the index reaches (it was all pulled for our platform).
    expect(await env.images.gc()).toEqual([]);
  });

  it("takes plain amd64 over the amd64 v2/v3 builds listed first, as containerd, and refuses an entry naming no platform whose config is another architecture", async () => {
    await pushImage(registry.url, (await testImages()).pauseOci, 'variants:pause');
    await pushImage(registry.url, (await testImages()).busyboxOci, 'variants:busybox');
    const entry = (m: typeof pause.manifest, platform?: object) => ({ ...m, annotations: undefined, platform });
    const index = Buffer.from(
      JSON.stringify({
        schemaVersion: 2,
        mediaType: MediaType.ociIndex,
        manifests: [
          entry(pause.manifest, { os: 'linux', architecture: 'amd64', variant: 'v3' }),
          entry(pause.manifest, { os: 'linux', architecture: 'amd64', variant: 'v2' }),
          entry(busybox.manifest, { os: 'Linux', architecture: 'AMD64' }),
        ],
      }),
    );
    await pushManifest(registry.url, 'variants', 'v1', MediaType.ociIndex, index);
    expect((await env.images.pull(`${registry.host}/variants:v1`)).configDigest).toBe(busybox.config.digest);

    // The pause's config says amd64: make one that says arm64, behind an entry with no platform.
    const tiny = await tinyImage('arm64');
    const armConfig = Buffer.from(JSON.stringify({ ...JSON.parse(tiny.config.toString()), architecture: 'arm64' }));
    const armManifest = Buffer.from(
      JSON.stringify({ ...JSON.parse(tiny.manifest.toString()), config: { mediaType: MediaType.ociConfig, digest: sha(armConfig), size: armConfig.length } }),
    );
    await pushBlob(registry.url, 'noplatform', armConfig);
    await pushBlob(registry.url, 'noplatform', tiny.layer);
    const manifestDigest = await pushManifest(registry.url, 'noplatform', 'manifest', MediaType.ociManifest, armManifest);
    const onlyUnnamed = Buffer.from(
      JSON.stringify({
        schemaVersion: 2,
        mediaType: MediaType.ociIndex,
        manifests: [{ mediaType: MediaType.ociManifest, digest: manifestDigest, size: armManifest.length }],
      }),
    );
    await pushManifest(registry.url, 'noplatform', 'v1', MediaType.ociIndex, onlyUnnamed);
    const err = await env.images.pull(`${registry.host}/noplatform:v1`).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(kindOf(err)).toBe('NotFound');
    expect((err as Error).message).toContain('is for linux/arm64 by its config');
    expect(kindOf(await env.images.get(`${registry.host}/noplatform:v1`).catch((e: unknown) => e))).toBe('NotFound');
  });

  it('unpacks the layers among the entries of a manifest and leaves out a signature listed there (fetched, as containerd fetches it)', async () => {
    const tiny = await tinyImage('signed');
    const signature = Buffer.from('not a layer');
    const manifest = Buffer.from(
      JSON.stringify({
        ...JSON.parse(tiny.manifest.toString()),
        layers: [
          { mediaType: MediaType.ociLayerGzip, digest: sha(tiny.layer), size: tiny.layer.length },
          { mediaType: 'application/vnd.example.signature', digest: sha(signature), size: signature.length },
        ],
      }),
    );
    await pushBlob(registry.url, 'signed', tiny.config);
    await pushBlob(registry.url, 'signed', tiny.layer);
    await pushBlob(registry.url, 'signed', signature);
    await pushManifest(registry.url, 'signed', 'v1', MediaType.ociManifest, manifest);
    const record = await env.images.pull(`${registry.host}/signed:v1`);
    expect(record.configDigest).toBe(sha(tiny.config));
    expect(await env.content.has(sha(tiny.layer))).toBe(true);
    expect(await env.content.has(sha(signature))).toBe(true); // an export of the image names it
  });

  it('resolves registry.k8s.io/pause:3.9 through a hosts.toml mirror', async () => {
    const configPath = mkdtempSync(join(tmpdir(), 'berth-certs.d-'));
    extra.push(() => rmSync(configPath, { recursive: true, force: true }));
    mkdirSync(join(configPath, 'registry.k8s.io'));
    writeFileSync(
      join(configPath, 'registry.k8s.io', 'hosts.toml'),
      `server = "https://registry.k8s.io"\n\n[host."http://${registry.host}"]\n  capabilities = ["pull", "resolve"]\n`,
    );
    env.close();
    env = imagesEnv({ registryConfigPath: configPath });
    const record = await env.images.pull('registry.k8s.io/pause:3.9');
    expect(record).toMatchObject({ name: 'registry.k8s.io/pause:3.9', configDigest: pause.config.digest });
    const img = await env.images.get('registry.k8s.io/pause:3.9');
    expect(img.repoTags).toEqual(['registry.k8s.io/pause:3.9']);
  });

  it('an unknown repository is NotFound and records nothing', async () => {
    const err = await env.images.pull(`${registry.host}/nobody/here:1`).catch((e: unknown) => e);
    expect(kindOf(err)).toBe('NotFound');
    expect((err as Error).message).toContain('nobody/here');
    expect(env.images.store.list()).toEqual([]);
    expect(env.blobs()).toEqual([]);
    await expect(env.images.pull('Bad/Name')).rejects.toMatchObject({ kind: 'InvalidArgument' });
  });

  it('a stopped registry is Unavailable naming the host', async () => {
    const gone = await startRegistry();
    await gone.stop();
    const err = await env.images.pull(`${gone.host}/library/busybox:latest`).catch((e: unknown) => e);
    expect(kindOf(err)).toBe('Unavailable');
    expect((err as Error).message).toContain(gone.host);
  });

  it('a tampered layer fails with a digest mismatch and records nothing', async () => {
    const layer = busybox.layers[0].digest;
    const proxy = await startProxy({ target: registry.url, tamper: (p) => p.endsWith(`/blobs/${layer}`) });
    extra.push(() => proxy.close());
    const err = await env.images.pull(`${proxy.host}/library/busybox:latest`).catch((e: unknown) => e);
    expect(kindOf(err)).toBe('FailedPrecondition');
    expect((err as Error).message).toMatch(new RegExp(`digest mismatch: expected ${layer}, actual sha256:`));
    expect(env.images.store.list()).toEqual([]);
    expect(env.blobs()).toEqual([]); // the manifest and config it did fetch were rolled back
    expect(env.ingests()).toEqual([]);
  });

  it('unpacks while the layers download: a layer held back by the registry waits only its own turn', async () => {
    // The proxy serves busybox's layer only once the unpack has started: a pull that unpacked
    // only after every download would wait forever (and the test would time out).
    const layer = busybox.layers[0].digest;
    let unpackStarted!: () => void;
    const started = new Promise<void>((resolve) => (unpackStarted = resolve));
    const proxy = await startProxy({ target: registry.url, hold: (p) => (p.endsWith(`/blobs/${layer}`) ? started : undefined) });
    extra.push(() => proxy.close());
    const sizes: number[] = [];
    const record = await env.images.pull(`${proxy.host}/library/busybox:latest`, {
      unpack: async (img) => {
        expect(await env.content.has(layer)).toBe(false);
        unpackStarted();
        await img.layerReady?.(0);
        sizes.push((await env.content.info(layer)).size);
      },
    });
    expect(sizes).toEqual([busybox.layers[0].size]);
    expect(record.configDigest).toBe(busybox.config.digest);
  });

  it('a tampered layer fails the pull (not the unpack waiting for it) and leaves nothing', async () => {
    const layer = busybox.layers[0].digest;
    const proxy = await startProxy({ target: registry.url, tamper: (p) => p.endsWith(`/blobs/${layer}`) });
    extra.push(() => proxy.close());
    const waited: string[] = [];
    const err = await env.images
      .pull(`${proxy.host}/library/busybox:latest`, {
        unpack: async (img) => {
          await img.layerReady?.(0).catch((e: unknown) => {
            waited.push(kindOf(e));
            throw e;
          });
        },
      })
      .catch((e: unknown) => e);
    expect(waited).toEqual(['FailedPrecondition']);
    expect(kindOf(err)).toBe('FailedPrecondition');
    expect((err as Error).message).toContain(`digest mismatch: expected ${layer}`);
    expect(env.images.store.list()).toEqual([]);
    expect(env.blobs()).toEqual([]);
  });

  it('a pull its caller gave up stops its download: connection closed, no ingest left, the next pull whole', async () => {
    const layer = busybox.layers[0].digest;
    const proxy = await startProxy({ target: registry.url, stall: (p) => p.endsWith(`/blobs/${layer}`) });
    extra.push(() => proxy.close());
    const ref = `${proxy.host}/library/busybox:latest`;
    const caller = new AbortController();
    const pulling = env.images.pull(ref, { signal: caller.signal }).catch((e: unknown) => e);
    await until('the layer download to stall', () => proxy.stalled.length === 1);
    await until('its ingest to be written', () => env.ingests().length === 1);
    caller.abort();
    expect(kindOf(await pulling)).toBe('Canceled');
    await proxy.stalled[0]!.closed; // the download's connection, closed by berth
    await until('the ingest to be removed', () => env.ingests().length === 0);
    expect(env.images.store.list()).toEqual([]);

    const direct = await startProxy({ target: registry.url });
    extra.push(() => direct.close());
    expect((await env.images.pull(`${direct.host}/library/busybox:latest`)).configDigest).toBe(busybox.config.digest);
  });

  it('a registry that drops the connection mid-blob is Unavailable, naming it, and leaves nothing', async () => {
    const layer = busybox.layers[0].digest;
    const proxy = await startProxy({ target: registry.url, stall: (p) => p.endsWith(`/blobs/${layer}`) });
    const pulling = env.images.pull(`${proxy.host}/library/busybox:latest`).catch((e: unknown) => e);
    await until('the layer download to stall', () => proxy.stalled.length === 1);
    await proxy.close(); // every connection cut
    const err = await pulling;
    expect(kindOf(err)).toBe('Unavailable');
    expect((err as Error).message).toContain(`registry ${proxy.host}: reading blob ${layer}`);
    await until('the ingest to be removed', () => env.ingests().length === 0);
  });

  it('a pull joined by another caller goes on when one of them gives up', async () => {
    const layer = busybox.layers[0].digest;
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const proxy = await startProxy({ target: registry.url, hold: (p) => (p.endsWith(`/blobs/${layer}`) ? released : undefined) });
    extra.push(() => proxy.close());
    const ref = `${proxy.host}/library/busybox:latest`;
    const leaving = new AbortController();
    const first = env.images.pull(ref, { signal: leaving.signal }).catch((e: unknown) => e);
    const second = env.images.pull(ref, { signal: new AbortController().signal });
    leaving.abort();
    expect(kindOf(await first)).toBe('Canceled');
    release();
    expect((await second).configDigest).toBe(busybox.config.digest);
    expect(proxy.requests.filter((r) => r.path.endsWith(`/blobs/${layer}`))).toHaveLength(1);
  });

  it("a redirect's body is not read: an endless one is closed and the pull goes on", async () => {
    let endlessClosed!: () => void;
    const closed = new Promise<void>((resolve) => (endlessClosed = resolve));
    const front = http.createServer((req, res) => {
      res.writeHead(302, { location: `${registry.url}${req.url ?? '/'}`, 'content-type': 'text/plain' });
      const chunk = Buffer.alloc(64 << 10, 0x61);
      const pump = () => {
        while (res.write(chunk));
      };
      res.on('drain', pump);
      res.once('close', () => endlessClosed());
      pump();
    });
    await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
    extra.push(() => new Promise<void>((resolve) => {
      front.closeAllConnections();
      front.close(() => resolve());
    }));
    const port = (front.address() as { port: number }).port;
    expect((await env.images.pull(`127.0.0.1:${port}/library/busybox:latest`)).configDigest).toBe(busybox.config.digest);
    await closed;
  });

  it('concurrent pulls of one image download each blob once', async () => {
    const proxy = await startProxy({ target: registry.url });
    extra.push(() => proxy.close());
    const ref = `${proxy.host}/library/busybox:latest`;
    const records = await Promise.all([1, 2, 3].map(() => env.images.pull(ref)));
    expect(new Set(records.map((r) => r.configDigest))).toEqual(new Set([busybox.config.digest]));
    const gets = (suffix: string) => proxy.requests.filter((r) => r.method === 'GET' && r.path.endsWith(suffix)).length;
    expect(gets('/manifests/latest')).toBe(1);
    expect(gets(`/blobs/${busybox.config.digest}`)).toBe(1);
    for (const l of busybox.layers) expect(gets(`/blobs/${l.digest}`)).toBe(1);
    // A second pull later skips the blobs already present.
    await env.images.pull(ref);
    expect(gets(`/blobs/${busybox.layers[0].digest}`)).toBe(1);
  });

  it('remove deletes every name of the image and its blobs; a re-pull brings it back', async () => {
    const tag = `${registry.host}/library/busybox:latest`;
    await env.images.pull(tag);
    await env.images.pull(`${registry.host}/library/busybox@${busybox.manifest.digest}`);
    expect((await env.images.list()).length).toBe(1);
    const removed = await env.images.remove(tag);
    expect(removed.sort()).toEqual([`${registry.host}/library/busybox@${busybox.manifest.digest}`, tag].sort());
    expect(await env.images.list()).toEqual([]);
    expect(env.blobs()).toEqual([]);
    await expect(env.images.get(tag)).rejects.toMatchObject({ kind: 'NotFound' });
    expect(await env.images.remove(tag)).toEqual([]); // idempotent
    await env.images.pull(tag);
    expect((await env.images.get(tag)).id).toBe(busybox.config.digest);
  });

  it('bearer token auth: refused without credentials, pulls with them', async () => {
    const proxy = await startProxy({
      target: registry.url,
      bearer: { username: 'berth', password: 's3cret', token: 'tok-123' },
    });
    extra.push(() => proxy.close());
    const ref = `${proxy.host}/library/busybox:latest`;
    const denied = await env.images.pull(ref).catch((e: unknown) => e);
    expect(kindOf(denied)).toBe('PermissionDenied');
    expect((denied as Error).message).toContain('bad credentials');
    const wrong = await env.images.pull(ref, { auth: { username: 'berth', password: 'nope' } }).catch((e: unknown) => e);
    expect(kindOf(wrong)).toBe('PermissionDenied');
    const record = await env.images.pull(ref, { auth: { auth: Buffer.from('berth:s3cret').toString('base64') } });
    expect(record.configDigest).toBe(busybox.config.digest);
    const tokenRequests = proxy.requests.filter((r) => r.path.startsWith('/token') && r.status === 200);
    expect(tokenRequests.length).toBe(1); // one token per host and pull, reused for every blob
  });

  it('a token with a CR/LF in it is refused naming the token server, never sent as a header', async () => {
    const proxy = await startProxy({ target: registry.url, bearer: { username: 'berth', password: 's3cret', token: 'tok\r\nX-Injected: 1' } });
    extra.push(() => proxy.close());
    const err = await env.images.pull(`${proxy.host}/library/busybox:latest`, { auth: { username: 'berth', password: 's3cret' } }).catch((e: unknown) => e);
    expect(kindOf(err)).toBe('Unavailable');
    expect((err as Error).message).toContain(`token server ${proxy.host} answered a token that is not printable ASCII`);
  });

  it('basic auth: the registry message on refusal, success with username/password', async () => {
    const proxy = await startProxy({ target: registry.url, basic: { username: 'u', password: 'p' } });
    extra.push(() => proxy.close());
    const ref = `${proxy.host}/library/busybox:latest`;
    const denied = await env.images.pull(ref).catch((e: unknown) => e);
    expect(kindOf(denied)).toBe('PermissionDenied');
    expect((denied as Error).message).toContain('wrong user or password');
    await expect(env.images.pull(ref, { auth: { username: 'u', password: 'p' } })).resolves.toMatchObject({ name: ref });
  });

  it('a pull never joins one made with other credentials: none or wrong ones are refused while an authorized pull runs', async () => {
    const held = holdBlob(busybox.layers[0].digest);
    const proxy = await startProxy({ target: registry.url, basic: { username: 'u', password: 'p' }, hold: held.hold });
    extra.push(() => proxy.close());
    const ref = `${proxy.host}/library/busybox:latest`;
    const authorized = env.images.pull(ref, { auth: { username: 'u', password: 'p' } });
    await held.reached;
    // Joined, it would wait for the held layer and get the image; on its own it is refused at once.
    const guard = new Promise((resolve) => setTimeout(() => resolve('still waiting: joined the authorized pull'), 30_000).unref());
    const anonymous = await Promise.race([env.images.pull(ref).catch((e: unknown) => e), guard]);
    expect(kindOf(anonymous)).toBe('PermissionDenied');
    const wrong = await Promise.race([env.images.pull(ref, { auth: { username: 'u', password: 'x' } }).catch((e: unknown) => e), guard]);
    expect(kindOf(wrong)).toBe('PermissionDenied');
    held.release();
    expect((await authorized).configDigest).toBe(busybox.config.digest);
  });

  it('a blob another registry fails to deliver is fetched from this pull\'s own registry', async () => {
    const layer = busybox.layers[0].digest;
    const held = holdBlob(layer);
    // A registry that holds the layer back, then corrupts it; another that serves it whole.
    const hostile = await startProxy({ target: registry.url, tamper: (p) => p.endsWith(`/blobs/${layer}`), hold: held.hold });
    const good = await startProxy({ target: registry.url });
    extra.push(() => hostile.close(), () => good.close());
    const fromHostile = env.images.pull(`${hostile.host}/library/busybox:latest`).catch((e: unknown) => e);
    await held.reached;
    const fromGood = env.images.pull(`${good.host}/library/busybox:latest`);
    // Let the good pull reach the layer the hostile one is downloading (its manifest answered, the
    // rest is local work; had it not joined yet, it would just download the layer itself), then let
    // that download fail.
    await until('the good pull has its manifest', () => good.requests.some((r) => r.path.endsWith('/manifests/latest')));
    await new Promise((resolve) => setTimeout(resolve, 500));
    held.release();
    expect(kindOf(await fromHostile)).toBe('FailedPrecondition');
    expect((await fromGood).configDigest).toBe(busybox.config.digest);
    expect(good.requests.filter((r) => r.method === 'GET' && r.path.endsWith(`/blobs/${layer}`))).toHaveLength(1);
  });

  it('two pulls of one image failing together leave no blob: the second collects what the first wrote', async () => {
    const layer = busybox.layers[0].digest;
    const held = holdBlob(layer);
    const proxy = await startProxy({ target: registry.url, tamper: (p) => p.endsWith(`/blobs/${layer}`), hold: held.hold });
    extra.push(() => proxy.close());
    const byTag = env.images.pull(`${proxy.host}/library/busybox:latest`).catch((e: unknown) => e);
    await held.reached;
    // By digest: another pull, which finds the manifest and config the first wrote, and holds them.
    const byDigest = env.images.pull(`${proxy.host}/library/busybox@${busybox.manifest.digest}`).catch((e: unknown) => e);
    await until('the second pull has its manifest', () => proxy.requests.some((r) => r.path.endsWith(`/manifests/${busybox.manifest.digest}`)));
    await new Promise((resolve) => setTimeout(resolve, 500));
    held.release();
    expect(kindOf(await byTag)).toBe('FailedPrecondition');
    expect(kindOf(await byDigest)).toBe('FailedPrecondition');
    expect(env.images.store.list()).toEqual([]);
    expect(env.blobs()).toEqual([]);
    expect(env.ingests()).toEqual([]);
  });

  it('an image pulled as name:tag@digest is found by that same string, as containerd drops the tag', async () => {
    const ref = `${registry.host}/library/busybox:latest@${busybox.manifest.digest}`;
    await env.images.pull(ref);
    expect((await env.images.get(ref)).id).toBe(busybox.config.digest);
  });

  it('a layer that cannot be unpacked stops the downloads still going: the pull fails at once', async () => {
    // Two layers: busybox's, then pause's, which the registry holds back until the test ends.
    const paths = await testImages();
    const [bb, ps] = await Promise.all([readOciArchive(paths.busyboxOci), readOciArchive(paths.pauseOci)]);
    const diffIdOf = (blobs: Map<string, Buffer>, config: Descriptor) =>
      (JSON.parse(blobs.get(config.digest)!.toString()) as { rootfs: { diff_ids: string[] } }).rootfs.diff_ids[0]!;
    const layers = [busybox.layers[0], pause.layers[pause.layers.length - 1]];
    const cfg = Buffer.from(
      JSON.stringify({ architecture: 'amd64', os: 'linux', rootfs: { type: 'layers', diff_ids: [diffIdOf(bb.blobs, busybox.config), diffIdOf(ps.blobs, pause.config)] } }),
    );
    const cfgDigest = await pushBlob(registry.url, 'two', cfg);
    await pushBlob(registry.url, 'two', bb.blobs.get(layers[0].digest)!);
    await pushBlob(registry.url, 'two', ps.blobs.get(layers[1].digest)!);
    const manifest = Buffer.from(
      JSON.stringify({ schemaVersion: 2, mediaType: MediaType.ociManifest, config: { mediaType: MediaType.ociConfig, digest: cfgDigest, size: cfg.length }, layers }),
    );
    await pushManifest(registry.url, 'two', 'v1', MediaType.ociManifest, manifest);
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const proxy = await startProxy({ target: registry.url, hold: (p) => (p.endsWith(`/blobs/${layers[1].digest}`) ? released : undefined) });
    extra.push(() => proxy.close(), release);
    const guard = new Promise((resolve) => setTimeout(() => resolve('still downloading the held layer'), 30_000).unref());
    const pulled = env.images
      .pull(`${proxy.host}/two:v1`, {
        unpack: async (img) => {
          await img.layerReady?.(0);
          throw new Error('apply layer 0: not a tar archive');
        },
      })
      .catch((e: unknown) => e);
    const err = await Promise.race([pulled, guard]);
    expect((err as Error).message).toContain('apply layer 0: not a tar archive');
    expect(env.images.store.list()).toEqual([]);
    expect(env.ingests()).toEqual([]);
  });

  it("follows up to 10 redirects, as Go's client under containerd; an eleventh is refused", async () => {
    // Every request is sent through `hops` redirects on this front before it reaches the registry.
    const frontOf = async (hops: number) => {
      const front = http.createServer((req, res) => {
        const m = /^\/r(\d+)(\/v2\/.*)$/.exec(req.url ?? '');
        const [k, rest] = m ? [Number(m[1]), m[2]!] : [0, req.url ?? '/'];
        res.writeHead(302, { location: k + 1 >= hops ? `${registry.url}${rest}` : `/r${k + 1}${rest}` }).end();
      });
      await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', resolve));
      extra.push(() => new Promise<void>((resolve) => front.close(() => resolve())));
      return `127.0.0.1:${(front.address() as { port: number }).port}`;
    };
    expect((await env.images.pull(`${await frontOf(10)}/library/busybox:latest`)).configDigest).toBe(busybox.config.digest);
    const err = await env.images.pull(`${await frontOf(11)}/library/pause:3.9`).catch((e: unknown) => e);
    expect((err as Error).message).toContain('too many redirects');
  });

  it('answers of 429 and 408 are asked again at once, up to 6 answers in all, as containerd', async () => {
    // The first two manifest requests are refused (rate limit, timeout), then it passes.
    const refusals = [429, 408];
    const proxy = await startProxy({ target: registry.url, refuse: (p) => (p.includes('/manifests/') ? refusals.shift() : undefined) });
    extra.push(() => proxy.close());
    expect((await env.images.pull(`${proxy.host}/library/busybox:latest`)).configDigest).toBe(busybox.config.digest);
    // Always refused: the pull fails after 6 answers, naming the registry's message.
    const limited = await startProxy({ target: registry.url, refuse: (p) => (p.includes('/manifests/') ? 429 : undefined) });
    extra.push(() => limited.close());
    const err = await env.images.pull(`${limited.host}/library/busybox:latest`).catch((e: unknown) => e);
    expect(kindOf(err)).toBe('Unavailable');
    expect((err as Error).message).toContain('slow down');
    expect(limited.requests.filter((r) => r.path.includes('/manifests/'))).toHaveLength(6);
  });

  it('a blob the registry lost is NotFound and the pull leaves nothing', async () => {
    const cfg = Buffer.from(JSON.stringify({ architecture: 'amd64', os: 'linux', rootfs: { type: 'layers', diff_ids: [] } }));
    const cfgDigest = await pushBlob(registry.url, 'lost', cfg);
    const manifest = Buffer.from(
      JSON.stringify({
        schemaVersion: 2,
        mediaType: MediaType.ociManifest,
        config: { mediaType: MediaType.ociConfig, digest: cfgDigest, size: cfg.length },
        layers: [],
      }),
    );
    await pushManifest(registry.url, 'lost', 'v1', MediaType.ociManifest, manifest);
    const del = await fetch(`${registry.url}/v2/lost/blobs/${cfgDigest}`, { method: 'DELETE' });
    expect(del.status).toBe(202);
    const err = await env.images.pull(`${registry.host}/lost:v1`).catch((e: unknown) => e);
    expect(kindOf(err)).toBe('NotFound');
    expect((err as Error).message).toContain(cfgDigest);
    expect(env.images.store.list()).toEqual([]);
    expect(env.blobs()).toEqual([]);
  });
});

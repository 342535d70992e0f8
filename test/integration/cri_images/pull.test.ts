// CRI PullImage from a real registry (Debian's docker-registry on 127.0.0.1, plain http through a
// hosts.toml in [registry] config_path), through a real berthd: by tag, by digest, the errors a
// kubelet sees, ImageFsInfo growing, and remove + re-pull.
import { status as GrpcStatus } from '@grpc/grpc-js';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { chainIDs } from '../../../internal/rootfs';
import { callError, criClient, type CriClient } from '../../harness/cri_client';
import { startBerthd, type RunningBerthd } from '../../harness/daemon';
import { testImages, type TestImagePaths } from '../../harness/images';
import { pushImage, readOciArchive, startRegistry, type RunningRegistry } from '../../harness/registry';
import { startProxy } from '../images/registry_proxy';
import { until } from '../recovery/probes';
import { blobsOnDisk, committedSnapshots } from './env';

jest.setTimeout(180_000);

describe('CRI PullImage from a registry', () => {
  let paths: TestImagePaths;
  let registry: RunningRegistry;
  let hostsDir: string;
  let daemon: RunningBerthd;
  let client: CriClient;
  let repo: string; // "127.0.0.1:<port>/berth/busybox"
  let manifestDigest: string;
  let imageId: string;

  const usedBytes = async () => Number((await client.image.ImageFsInfo({})).image_filesystems[0]?.used_bytes?.value);

  beforeAll(async () => {
    paths = await testImages();
    registry = await startRegistry();
    manifestDigest = (await pushImage(registry.url, paths.busyboxOci, 'berth/busybox:1')).digest;
    repo = `${registry.host}/berth/busybox`;
    hostsDir = mkdtempSync(join(tmpdir(), 'berth-cri-hosts-'));
    mkdirSync(join(hostsDir, registry.host));
    writeFileSync(
      join(hostsDir, registry.host, 'hosts.toml'),
      `server = "${registry.url}"\n\n[host."${registry.url}"]\n  capabilities = ["pull", "resolve"]\n`,
    );
    daemon = await startBerthd({ configToml: `[registry]\nconfig_path = "${hostsDir}"\n` });
    client = criClient(daemon.socket);
  });

  afterAll(async () => {
    client?.close();
    await daemon?.stop();
    await registry?.stop();
    if (hostsDir) rmSync(hostsDir, { recursive: true, force: true });
  });

  it('pulls by tag, answers the image ID, and unpacks the layers', async () => {
    const before = await usedBytes();
    const { image_ref } = await client.image.PullImage({ image: { image: `${repo}:1` } });
    expect(image_ref).toMatch(/^sha256:[0-9a-f]{64}$/);
    imageId = image_ref;
    expect(blobsOnDisk(daemon.root)).toContain(imageId); // the ID is the config's digest

    const { image, info } = await client.image.ImageStatus({ image: { image: `${repo}:1` }, verbose: true });
    expect(image).toMatchObject({ id: imageId, repo_tags: [`${repo}:1`], repo_digests: [`${repo}@${manifestDigest}`] });
    const spec = JSON.parse(info.info!) as { chainID: string; imageSpec: { rootfs: { diff_ids: string[] } } };
    expect(committedSnapshots(daemon.root)).toEqual(chainIDs(spec.imageSpec.rootfs.diff_ids).sort());
    expect(await usedBytes()).toBeGreaterThan(before);
  });

  it('pulls by digest, and finds the tag-pulled image by its repo digest', async () => {
    const byDigest = `${repo}@${manifestDigest}`;
    expect((await client.image.ImageStatus({ image: { image: byDigest } })).image?.id).toBe(imageId);
    expect(await client.image.PullImage({ image: { image: byDigest } })).toEqual({ image_ref: imageId });
    const { images } = await client.image.ListImages({});
    expect(images).toHaveLength(1);
    expect(images[0]).toMatchObject({ id: imageId, repo_tags: [`${repo}:1`], repo_digests: [byDigest] });
  });

  it('answers NOT_FOUND for a repository the registry does not have', async () => {
    const err = await callError(client.image.PullImage({ image: { image: `${registry.host}/berth/absent:1` } }));
    expect(err.code).toBe(GrpcStatus.NOT_FOUND);
    expect(err.details).toContain(`${registry.host}/berth/absent:1`);
    expect((await client.image.ListImages({})).images).toHaveLength(1);
  });

  it('answers INVALID_ARGUMENT for a malformed reference', async () => {
    const err = await callError(client.image.PullImage({ image: { image: 'Not/A:Valid:Ref' } }));
    expect(err.code).toBe(GrpcStatus.INVALID_ARGUMENT);
    expect(err.details).toContain('Not/A:Valid:Ref');
  });

  it('removes the pulled image with its blobs and snapshots, then pulls it again', async () => {
    await client.image.RemoveImage({ image: { image: `${repo}:1` } });
    expect((await client.image.ListImages({})).images).toEqual([]);
    expect(await client.image.ImageStatus({ image: { image: `${repo}@${manifestDigest}` } })).toEqual({ image: null, info: {} });
    expect(blobsOnDisk(daemon.root)).toEqual([]);
    expect(committedSnapshots(daemon.root)).toEqual([]);
    await expect(client.image.RemoveImage({ image: { image: `${repo}:1` } })).resolves.toEqual({});

    expect(await client.image.PullImage({ image: { image: `${repo}:1` } })).toEqual({ image_ref: imageId });
    expect((await client.image.ImageStatus({ image: { image: imageId } })).image?.repo_tags).toEqual([`${repo}:1`]);
    expect(committedSnapshots(daemon.root).length).toBeGreaterThan(0);
  });

  it('a client that gives up stops the download: its connection closed, no ingest left', async () => {
    // An image this berthd has no blob of (busybox's are all here by now).
    await pushImage(registry.url, paths.pauseOci, 'berth/pause:1');
    const proxy = await startProxy({ target: registry.url, stall: (p) => p.includes('/blobs/') });
    try {
      const err = await callError(client.image.PullImage({ image: { image: `${proxy.host}/berth/pause:1` } }, { deadline: Date.now() + 3_000 }));
      expect(err.code).toBe(GrpcStatus.DEADLINE_EXCEEDED);
      await until('the stalled download to begin', () => proxy.stalled.length > 0);
      for (const { closed } of proxy.stalled) await closed;
      const ingestDir = join(daemon.root, 'content', 'ingest');
      await until('the ingest to be removed', () => readdirSync(ingestDir).length === 0);
      expect((await client.image.ListImages({})).images.map((i) => i.repo_tags).flat()).not.toContain(`${proxy.host}/berth/pause:1`);
    } finally {
      await proxy.close();
    }
  });

  it('a pull that fails after committing layers leaves none of them', async () => {
    // The three-layer image: its last layer is held back until the two below it are committed,
    // then arrives corrupted.
    await pushImage(registry.url, paths.layers3Oci, 'berth/layers3:1');
    const { index, blobs } = await readOciArchive(paths.layers3Oci);
    const manifestDesc = (JSON.parse(index.toString()) as { manifests: { digest: string }[] }).manifests[0]!;
    const manifest = JSON.parse(blobs.get(manifestDesc.digest)!.toString()) as { config: { digest: string }; layers: { digest: string }[] };
    const diffIds = (JSON.parse(blobs.get(manifest.config.digest)!.toString()) as { rootfs: { diff_ids: string[] } }).rootfs.diff_ids;
    const chains = chainIDs(diffIds);
    const last = manifest.layers[2]!.digest;
    const before = committedSnapshots(daemon.root);
    const lowerCommitted = async () => {
      while (!chains.slice(0, 2).every((chain) => committedSnapshots(daemon.root).includes(chain))) await sleep(50);
    };
    const proxy = await startProxy({
      target: registry.url,
      hold: (p) => (p.endsWith(`/blobs/${last}`) ? lowerCommitted() : undefined),
      tamper: (p) => p.endsWith(`/blobs/${last}`),
    });
    try {
      const err = await callError(client.image.PullImage({ image: { image: `${proxy.host}/berth/layers3:1` } }));
      expect(err.details).toContain('digest mismatch');
      await until('the committed layers to be collected', () => committedSnapshots(daemon.root).join() === before.join());
    } finally {
      await proxy.close();
    }
  });

  it('answers UNAVAILABLE naming the registry when it is down', async () => {
    await registry.stop();
    const err = await callError(client.image.PullImage({ image: { image: `${repo}:2` } }));
    expect(err.code).toBe(GrpcStatus.UNAVAILABLE);
    expect(err.details).toContain(registry.host);
    // What was pulled before stays usable.
    expect((await client.image.ImageStatus({ image: { image: `${repo}:1` } })).image?.id).toBe(imageId);
  });
});

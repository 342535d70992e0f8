// The CRI ImageService on images imported with `berthctl images import`, through a real berthd:
// what ListImages / ImageStatus / ImageFsInfo answer, what lands on disk (blobs, committed layer
// snapshots), and what RemoveImage takes away again.
import { status as GrpcStatus } from '@grpc/grpc-js';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chainIDs } from '../../../internal/rootfs';
import { callError, criClient, type CriClient } from '../../harness/cri_client';
import { startBerthd, type RunningBerthd } from '../../harness/daemon';
import {
  BUSYBOX_DOCKER_IMAGE,
  BUSYBOX_IMAGE,
  LAYERS3_IMAGE,
  PAUSE_IMAGE,
  testImages,
  type TestImagePaths,
} from '../../harness/images';
import { berthctl, blobsOnDisk, committedSnapshots, snapshotDirs, snapshotRows } from './env';

jest.setTimeout(180_000);

describe('CRI images imported with berthctl', () => {
  let paths: TestImagePaths;
  let scratch: string;
  let daemon: RunningBerthd;
  let client: CriClient;
  let busyboxId: string;

  const usedBytes = async () => {
    const fs = await client.image.ImageFsInfo({});
    return Number(fs.image_filesystems[0]?.used_bytes?.value);
  };

  /** The chain IDs of an image's layers, from its verbose ImageStatus. */
  const chainOf = async (ref: string) => {
    const { info } = await client.image.ImageStatus({ image: { image: ref }, verbose: true });
    return chainIDs((JSON.parse(info.info!) as { imageSpec: { rootfs: { diff_ids: string[] } } }).imageSpec.rootfs.diff_ids);
  };

  beforeAll(async () => {
    paths = await testImages();
    scratch = mkdtempSync(join(tmpdir(), 'berth-cri-images-'));
    daemon = await startBerthd();
    client = criClient(daemon.socket);
  });

  afterAll(async () => {
    client?.close();
    await daemon?.stop();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it('imports the OCI and the docker archive, printing name and ID', async () => {
    const oci = await berthctl(daemon.socket, 'images', 'import', paths.busyboxOci);
    expect(oci).toMatchObject({ code: 0, stderr: '' });
    const [name, id] = oci.stdout.trim().split('\t');
    expect(name).toBe(BUSYBOX_IMAGE);
    expect(id).toMatch(/^sha256:[0-9a-f]{64}$/);
    busyboxId = id!;

    const docker = await berthctl(daemon.socket, 'images', 'import', paths.busyboxDocker);
    expect(docker).toMatchObject({ code: 0, stdout: `${BUSYBOX_DOCKER_IMAGE}\t${busyboxId}\n` });
  });

  it('lists one image with both names as repo tags', async () => {
    const { images } = await client.image.ListImages({});
    expect(images).toHaveLength(1);
    const [image] = images;
    expect(image!.id).toBe(busyboxId);
    expect(image!.repo_tags).toEqual([BUSYBOX_DOCKER_IMAGE, BUSYBOX_IMAGE].sort());
    expect(image!.repo_digests).toEqual([]); // an import records no digest reference, as containerd's
    expect(image!.spec?.image).toBe(busyboxId);
  });

  it('answers ImageStatus by short name, full name, ID and ID prefix', async () => {
    for (const ref of ['busybox', BUSYBOX_IMAGE, busyboxId, busyboxId.slice('sha256:'.length, 'sha256:'.length + 12)]) {
      const { image, info } = await client.image.ImageStatus({ image: { image: ref } });
      expect(image).toMatchObject({
        id: busyboxId,
        repo_tags: [BUSYBOX_DOCKER_IMAGE, BUSYBOX_IMAGE].sort(),
        uid: null, // the busybox image sets no User
        username: '',
        pinned: false,
      });
      expect(Number(image!.size)).toBeGreaterThan(100_000);
      expect(info).toEqual({});
    }
  });

  it('adds the chain ID and the image config with verbose, and the chain is unpacked', async () => {
    const { info } = await client.image.ImageStatus({ image: { image: BUSYBOX_IMAGE }, verbose: true });
    const parsed = JSON.parse(info.info!) as {
      chainID: string;
      imageSpec: { architecture: string; os: string; config: { Cmd: string[] }; rootfs: { diff_ids: string[] } };
    };
    expect(parsed.imageSpec).toMatchObject({ os: 'linux', config: { Cmd: ['sh'] } });
    const chain = chainIDs(parsed.imageSpec.rootfs.diff_ids);
    expect(parsed.chainID).toBe(chain.at(-1));
    expect(committedSnapshots(daemon.root)).toEqual(expect.arrayContaining(chain));
    const rows = snapshotRows(daemon.root);
    expect(snapshotDirs(daemon.root)).toEqual(rows.map((r) => r.id));
  });

  it('answers a null image (not an error) for an image it does not have', async () => {
    expect(await client.image.ImageStatus({ image: { image: 'berth.test/absent:1' } })).toEqual({ image: null, info: {} });
    expect(await client.image.ImageStatus({ image: { image: `sha256:${'0'.repeat(64)}` } })).toEqual({ image: null, info: {} });
  });

  it('filters ListImages by reference or ID', async () => {
    const idsFor = async (image: string) =>
      (await client.image.ListImages({ filter: { image: { image } } })).images.map((i) => i.id);
    expect(await idsFor(BUSYBOX_DOCKER_IMAGE)).toEqual([busyboxId]);
    expect(await idsFor(busyboxId)).toEqual([busyboxId]);
    expect(await idsFor('berth.test/absent:1')).toEqual([]);
  });

  it('marks the configured sandbox image pinned and reports its numeric user as uid', async () => {
    const out = await berthctl(daemon.socket, 'images', 'import', paths.pauseOci);
    expect(out.code).toBe(0);
    const { image } = await client.image.ImageStatus({ image: { image: PAUSE_IMAGE } });
    expect(image).toMatchObject({ repo_tags: [PAUSE_IMAGE], pinned: true, uid: { value: '65535' }, username: '' });
    const listed = (await client.image.ListImages({})).images;
    expect(listed.map((i) => [i.repo_tags[0], i.pinned]).sort()).toEqual(
      [
        [BUSYBOX_DOCKER_IMAGE, false],
        [PAUSE_IMAGE, true],
      ].sort(),
    );
  });

  it('refuses archive paths berthd cannot use, naming them', async () => {
    const relative = await callError(client.admin.ImportImage({ path: 'busybox-oci.tar', name: '' }));
    expect(relative.code).toBe(GrpcStatus.INVALID_ARGUMENT);
    expect(relative.details).toContain('"busybox-oci.tar" is not absolute');

    const missing = join(scratch, 'missing.tar');
    const absent = await callError(client.admin.ImportImage({ path: missing, name: '' }));
    expect(absent.code).toBe(GrpcStatus.NOT_FOUND);
    expect(absent.details).toContain(missing);

    const garbage = join(scratch, 'garbage.tar');
    writeFileSync(garbage, 'not a tar archive');
    const bad = await callError(client.admin.ImportImage({ path: garbage, name: '' }));
    expect(bad.code).not.toBe(GrpcStatus.OK);
    expect(bad.details).toContain(garbage);

    const cli = await berthctl(daemon.socket, 'images', 'import', missing);
    expect(cli.code).toBe(1);
    expect(cli.stderr).toContain('NOT_FOUND');
  });

  it('reports the image filesystem usage under <root>/overlayfs', async () => {
    const fs = await client.image.ImageFsInfo({});
    expect(fs.image_filesystems).toHaveLength(1);
    const [usage] = fs.image_filesystems;
    expect(usage!.fs_id?.mountpoint).toBe(join(daemon.root, 'overlayfs'));
    expect(Number(usage!.used_bytes?.value)).toBeGreaterThan(500_000);
    expect(Number(usage!.inodes_used?.value)).toBeGreaterThan(10);
    expect(BigInt(usage!.timestamp)).toBeGreaterThan(BigInt(Date.now() - 600_000) * 1_000_000n);
    expect(fs.container_filesystems.map((f) => f.fs_id?.mountpoint)).toEqual([join(daemon.root, 'overlayfs')]);
  });

  it('keeps a layer another image shares when removing an image', async () => {
    const busyboxChain = await chainOf(BUSYBOX_IMAGE);
    const before = committedSnapshots(daemon.root);

    const out = await berthctl(daemon.socket, 'images', 'import', paths.layers3Oci);
    expect(out.code).toBe(0);
    const layers3Chain = await chainOf(LAYERS3_IMAGE);
    expect(layers3Chain[0]).toBe(busyboxChain[0]); // its base layer is the busybox layer
    expect(committedSnapshots(daemon.root)).toEqual([...new Set([...before, ...layers3Chain])].sort());

    await client.image.RemoveImage({ image: { image: LAYERS3_IMAGE } });
    expect(committedSnapshots(daemon.root)).toEqual(before);
    expect((await client.image.ImageStatus({ image: { image: BUSYBOX_IMAGE } })).image?.id).toBe(busyboxId);
  });

  it('removes an image with every name, its blobs and its snapshots; again is fine', async () => {
    const busyboxChain = await chainOf(busyboxId);
    const blobsBefore = blobsOnDisk(daemon.root);
    expect(blobsBefore).toContain(busyboxId);
    const usedBefore = await usedBytes();

    await client.image.RemoveImage({ image: { image: 'busybox' } });

    expect((await client.image.ListImages({})).images.map((i) => i.repo_tags)).toEqual([[PAUSE_IMAGE]]);
    expect((await client.image.ImageStatus({ image: { image: BUSYBOX_DOCKER_IMAGE } })).image).toBeNull();
    expect((await client.image.ImageStatus({ image: { image: busyboxId } })).image).toBeNull();
    const blobsAfter = blobsOnDisk(daemon.root);
    expect(blobsAfter).not.toContain(busyboxId);
    expect(blobsAfter.length).toBeLessThan(blobsBefore.length);
    const committed = committedSnapshots(daemon.root);
    for (const chainID of busyboxChain) expect(committed).not.toContain(chainID);
    expect(committed.length).toBeGreaterThan(0); // pause's layers stay
    expect(snapshotDirs(daemon.root)).toEqual(snapshotRows(daemon.root).map((r) => r.id));
    expect(await usedBytes()).toBeLessThan(usedBefore);

    await expect(client.image.RemoveImage({ image: { image: 'busybox' } })).resolves.toEqual({});
    await expect(client.image.RemoveImage({ image: { image: busyboxId } })).resolves.toEqual({});
  });
});

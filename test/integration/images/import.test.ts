// Importing OCI layout and docker-save archives into a real content store and metadata DB.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { BUSYBOX_DOCKER_IMAGE, BUSYBOX_IMAGE, LAYERS3_IMAGE, PAUSE_IMAGE, testImages } from '../../harness/images';
import { readOciArchive } from '../../harness/registry';
import { MediaType } from '../../../internal/images/oci';
import { kindOf } from '../../../internal/errdefs/errors';
import { imagesEnv, type ImagesEnv } from './env';
import { sha, tinyImage, writeOciArchive } from './fixtures';

describe('import image archives', () => {
  let env: ImagesEnv;
  let dir: string;
  beforeEach(() => {
    env = imagesEnv();
    dir = mkdtempSync(join(tmpdir(), 'berth-archives-'));
  });
  afterEach(() => {
    env.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('imports the busybox OCI archive under its io.containerd.image.name', async () => {
    const paths = await testImages();
    const { blobs } = await readOciArchive(paths.busyboxOci);
    const unpacked: string[] = [];
    const records = await env.images.import(paths.busyboxOci, { unpack: async (i) => void unpacked.push(...i.names) });
    expect(records.map((r) => r.name)).toEqual([BUSYBOX_IMAGE]);
    expect(unpacked).toEqual([BUSYBOX_IMAGE]);
    expect(env.blobs()).toEqual([...blobs.keys()].sort());
    const img = await env.images.get('busybox');
    expect(img.repoTags).toEqual([BUSYBOX_IMAGE]);
    expect(img.config.diffIds.length).toBe(1);
    expect(env.ingests()).toEqual([]);
  });

  it('the docker-save archive of the same image shares its ID: one CRI image, two names', async () => {
    const paths = await testImages();
    await env.images.import(paths.busyboxOci);
    const [docker] = await env.images.import(paths.busyboxDocker);
    expect(docker.name).toBe(BUSYBOX_DOCKER_IMAGE);
    expect(docker.target.mediaType).toBe(MediaType.dockerManifest);
    const resolved = await env.images.resolve(BUSYBOX_DOCKER_IMAGE);
    expect(resolved.layers.map((l) => l.mediaType)).toEqual([MediaType.dockerLayer]);
    expect(resolved.layers[0].digest).toBe(resolved.config.diffIds[0]); // stored as the uncompressed tar
    const list = await env.images.list();
    expect(list.length).toBe(1);
    expect(list[0].repoTags).toEqual([BUSYBOX_DOCKER_IMAGE, BUSYBOX_IMAGE].sort());
    expect(list[0].repoDigests).toEqual([]); // imports record tags only, as containerd's
  });

  it('a lookup by image ID follows the names as they change (it is kept between changes)', async () => {
    const paths = await testImages();
    const [oci] = await env.images.import(paths.busyboxOci);
    const id = oci.configDigest;
    expect((await env.images.get(id)).repoTags).toEqual([BUSYBOX_IMAGE]);
    const reads = [jest.spyOn(env.images.store, 'idsWithPrefix'), jest.spyOn(env.images.store, 'listByConfig')];
    await env.images.get(id);
    expect(reads.map((r) => r.mock.calls.length)).toEqual([0, 0]); // nothing changed: no query
    for (const r of reads) r.mockRestore();
    await env.images.import(paths.busyboxDocker); // a second name for the same ID
    expect((await env.images.get(id)).repoTags).toEqual([BUSYBOX_DOCKER_IMAGE, BUSYBOX_IMAGE].sort());
    env.images.store.delete(BUSYBOX_IMAGE);
    expect((await env.images.get(id)).repoTags).toEqual([BUSYBOX_DOCKER_IMAGE]);
    await env.images.remove(id);
    await expect(env.images.get(id)).rejects.toMatchObject({ message: expect.stringMatching(/not found/) });
    await env.images.import(paths.busyboxOci); // back, under its first name only
    expect((await env.images.get(id)).repoTags).toEqual([BUSYBOX_IMAGE]);
  });

  it('keeps what it resolved of an image only while a record points at it', async () => {
    const paths = await testImages();
    const [oci] = await env.images.import(paths.busyboxOci);
    await env.images.get(oci.configDigest);
    const kept = env.images.resolvedImages;
    expect(kept).toBeGreaterThanOrEqual(1);
    await env.images.remove(oci.configDigest);
    expect(env.images.resolvedImages).toBe(kept - 1);
  });

  it("deletes a removed image's blobs only once its records' removal is on disk", async () => {
    env.close();
    let flushFails = false;
    env = imagesEnv({}, async () => {
      if (flushFails) throw Object.assign(new Error('EIO: i/o error, fsync'), { code: 'EIO' });
    });
    const paths = await testImages();
    const [record] = await env.images.import(paths.busyboxOci);
    const blobs = env.blobs();
    expect(blobs.length).toBeGreaterThan(0);
    flushFails = true;
    await expect(env.images.remove(record!.name)).rejects.toThrow('EIO');
    expect(env.images.store.list()).toEqual([]);
    expect(env.blobs()).toEqual(blobs); // the records may still come back: their blobs stay
    flushFails = false;
    await env.images.gc();
    expect(env.blobs()).toEqual([]);
  });

  it('imports pause and the three-layer image', async () => {
    const paths = await testImages();
    await env.images.import(paths.pauseOci);
    const [l3] = await env.images.import(paths.layers3Oci);
    expect(l3.name).toBe(LAYERS3_IMAGE);
    const resolved = await env.images.resolve(LAYERS3_IMAGE);
    expect(resolved.layers.length).toBe(3);
    expect(resolved.layers.some((l) => l.mediaType === MediaType.ociLayer)).toBe(true);
    expect((await env.images.get(PAUSE_IMAGE)).repoTags).toEqual([PAUSE_IMAGE]);
    expect((await env.images.list()).length).toBe(2);
  });

  it('a gzipped archive imports too', async () => {
    const paths = await testImages();
    const gz = join(dir, 'busybox.tar.gz');
    writeFileSync(gz, gzipSync(readFileSync(paths.busyboxOci)));
    expect((await env.images.import(gz)).map((r) => r.name)).toEqual([BUSYBOX_IMAGE]);
  });

  it('refuses what is not a regular file once opened, without waiting for a FIFO writer', async () => {
    // What the admin path check saw may have been swapped since: the file actually opened decides.
    const fifo = join(dir, 'swapped.tar');
    execFileSync('mkfifo', [fifo]);
    const fromFifo = await env.images.import(fifo).catch((e: unknown) => e);
    expect(kindOf(fromFifo)).toBe('InvalidArgument');
    expect((fromFifo as Error).message).toContain('not a regular file');
    // A "regular file" of the kernel's (/proc/kmsg would block a read for ever).
    const fromProc = await env.images.import('/proc/self/status').catch((e: unknown) => e);
    expect(kindOf(fromProc)).toBe('InvalidArgument');
    expect((fromProc as Error).message).toContain('kernel file');
    expect(await env.images.list()).toEqual([]);
  });

  it('a bare org.opencontainers.image.ref.name tag goes on the given name', async () => {
    const img = await tinyImage('bare');
    const path = join(dir, 'bare.tar');
    await writeOciArchive(path, img, { annotations: { 'org.opencontainers.image.ref.name': 'v2' } });
    const records = await env.images.import(path, { name: 'example.com/team/app' });
    expect(records.map((r) => r.name)).toEqual(['example.com/team/app:v2']);
    const view = await env.images.get('example.com/team/app:v2');
    expect(view).toMatchObject({ id: sha(img.config), uid: 1000, username: '' });
    expect(view.config).toMatchObject({ cmd: ['/bin/sh'], volumes: ['/data'] });
    // containerd counts every blob walked: manifest, config and layers.
    expect(view.size).toBe(img.manifest.length + img.config.length + img.layer.length);
  });

  it('a full reference in ref.name is used as is', async () => {
    const path = join(dir, 'full.tar');
    await writeOciArchive(path, await tinyImage('full'), { annotations: { 'org.opencontainers.image.ref.name': 'localhost:5000/x:1' } });
    expect((await env.images.import(path)).map((r) => r.name)).toEqual(['localhost:5000/x:1']);
  });

  it('an unnamed image needs a name: InvalidArgument, nothing left behind', async () => {
    const path = join(dir, 'unnamed.tar');
    await writeOciArchive(path, await tinyImage('unnamed'));
    const err = await env.images.import(path).catch((e: unknown) => e);
    expect(kindOf(err)).toBe('InvalidArgument');
    expect((err as Error).message).toContain('has no name');
    expect(env.blobs()).toEqual([]);
    expect((await env.images.import(path, { name: 'named:now' })).map((r) => r.name)).toEqual(['docker.io/library/named:now']);
  });

  it('a blob whose bytes do not match its digest fails the import and leaves nothing', async () => {
    const path = join(dir, 'corrupt.tar');
    const img = await tinyImage('corrupt');
    await writeOciArchive(path, img, { annotations: { 'io.containerd.image.name': 'corrupt:1' }, corrupt: 'layer' });
    const err = await env.images.import(path).catch((e: unknown) => e);
    expect(kindOf(err)).toBe('FailedPrecondition');
    expect((err as Error).message).toContain(`expected ${sha(img.layer)}`);
    expect(env.images.store.list()).toEqual([]);
    expect(env.blobs()).toEqual([]);
    expect(env.ingests()).toEqual([]);
  });

  it('a failing unpack records nothing and removes the blobs it added, keeping shared ones', async () => {
    const paths = await testImages();
    await env.images.import(paths.busyboxOci);
    const before = env.blobs();
    const err = await env.images
      .import(paths.layers3Oci, {
        unpack: async () => {
          throw new Error('disk full');
        },
      })
      .catch((e: unknown) => e);
    expect((err as Error).message).toBe('disk full');
    expect((await env.images.list()).map((i) => i.repoTags)).toEqual([[BUSYBOX_IMAGE]]);
    expect(env.blobs()).toEqual(before); // layers3 shares the busybox layer: still there
  });

  it('a missing archive is NotFound naming the path', async () => {
    const missing = join(dir, 'nope.tar');
    await expect(env.images.import(missing)).rejects.toMatchObject({ kind: 'NotFound', message: expect.stringContaining(missing) });
  });
});

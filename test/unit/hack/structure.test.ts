// What an importer sees in each archive: names, digests that match their blobs, diff IDs that
// match the uncompressed layers, and layer contents (applet hard links, modes, owners, whiteouts).
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { buildTestImages, type TestImagePaths } from '../../../hack/images/build';
import { listApplets } from '../../../hack/images/busybox';
import { BIG_FILE_PATH, BIG_FILE_SIZE, LAYER3_CHANGES } from '../../../hack/images/layers3';
import {
  BUSYBOX_DOCKER_IMAGE,
  BUSYBOX_IMAGE,
  CREATED,
  DEFAULT_PATH_ENV,
  LAYERS3_IMAGE,
  PAUSE_IMAGE,
} from '../../../hack/images/names';
import { readOciArchive, readOciArchiveIndex, readTarRecords, type TarRecord } from '../../../hack/images/read-archive';

const execFileAsync = promisify(execFile);
const sha256 = (data: Uint8Array): string => `sha256:${createHash('sha256').update(data).digest('hex')}`;
const byName = (records: TarRecord[]): Map<string, TarRecord> => new Map(records.map((r) => [r.header.name, r]));

let outDir: string;
let paths: TestImagePaths;

beforeAll(async () => {
  outDir = await mkdtemp(join(tmpdir(), 'berth-images-structure-'));
  paths = await buildTestImages(outDir);
});

afterAll(async () => {
  await rm(outDir, { recursive: true, force: true });
});

describe('OCI archives', () => {
  test.each([
    ['busyboxOci', BUSYBOX_IMAGE, 'latest'],
    ['pauseOci', PAUSE_IMAGE, '3.9'],
    ['layers3Oci', LAYERS3_IMAGE, 'latest'],
  ] as const)('%s names its image %s and every digest matches its blob', async (key, name, tag) => {
    const index = await readOciArchiveIndex(paths[key]);
    expect(index.manifests).toHaveLength(1);
    expect(index.manifests[0].annotations).toEqual({
      'io.containerd.image.name': name,
      'org.opencontainers.image.ref.name': tag,
    });
    // readOciArchive checks each blob's size and digest against its descriptor.
    const image = await readOciArchive(paths[key]);
    expect(image.files.get('oci-layout')?.data.toString()).toBe('{"imageLayoutVersion":"1.0.0"}');
    expect(image.config.rootfs.diff_ids).toEqual(image.layerTars.map(sha256));
    expect(image.config).toMatchObject({ architecture: 'amd64', os: 'linux', created: CREATED });
    for (const record of image.files.values()) expect(record.header.mtime?.toISOString()).toBe('2024-01-01T00:00:00.000Z');
  });

  test('gzip layers carry no timestamp in their header', async () => {
    const image = await readOciArchive(paths.busyboxOci);
    const blob = image.files.get(`blobs/sha256/${image.manifest.layers[0].digest.slice(7)}`)?.data;
    expect(image.manifest.layers[0].mediaType).toBe('application/vnd.oci.image.layer.v1.tar+gzip');
    expect(blob?.subarray(0, 4)).toEqual(Buffer.from([0x1f, 0x8b, 0x08, 0x00]));
    expect(blob?.readUInt32LE(4)).toBe(0);
  });
});

describe('busybox image', () => {
  test('config runs sh with the standard PATH', async () => {
    const { config } = await readOciArchive(paths.busyboxOci);
    expect(config.config).toEqual({ Cmd: ['sh'], Env: [DEFAULT_PATH_ENV] });
  });

  test('every applet is a 0755 hard link to /bin/busybox; /tmp is 1777; /home/berth is 1000:1000', async () => {
    const { layerTars } = await readOciArchive(paths.busyboxOci);
    const records = await readTarRecords(layerTars[0]);
    const entries = byName(records);
    const busybox = entries.get('bin/busybox');
    expect(busybox?.header).toMatchObject({ type: 'file', mode: 0o755 });
    expect(busybox?.data.equals(await readFile('/bin/busybox'))).toBe(true);
    const applets = await listApplets();
    expect(applets).toEqual(expect.arrayContaining(['bin/sh', 'bin/ls', 'usr/bin/env']));
    for (const applet of applets) {
      expect({ applet, ...entries.get(applet)?.header }).toMatchObject({ applet, type: 'link', linkname: 'bin/busybox', mode: 0o755 });
    }
    // A hard link's target must come earlier in the stream for an extractor to create it.
    const position = new Map(records.map((r, i) => [r.header.name, i]));
    expect(Math.min(...applets.map((a) => position.get(a) ?? -1))).toBeGreaterThan(position.get('bin/busybox') ?? Infinity);
    expect(entries.get('tmp')?.header).toMatchObject({ type: 'directory', mode: 0o1777 });
    expect(entries.get('home/berth')?.header).toMatchObject({ type: 'directory', uid: 1000, gid: 1000 });
    for (const dir of ['dev', 'proc', 'sys', 'root']) expect(entries.get(dir)?.header.type).toBe('directory');
    expect(entries.get('etc/passwd')?.data.toString()).toContain('berth:x:1000:1000:berth:/home/berth:/bin/sh\n');
  });

  test('the layer, extracted by GNU tar, is a working root: sh resolves the berth user', async () => {
    const work = await mkdtemp(join(tmpdir(), 'berth-busybox-root-'));
    try {
      const { layerTars } = await readOciArchive(paths.busyboxOci);
      const root = join(work, 'rootfs');
      await mkdir(root);
      await writeFile(join(work, 'layer.tar'), layerTars[0]);
      await execFileAsync('tar', ['--numeric-owner', '-xpf', join(work, 'layer.tar'), '-C', root]);
      const { stdout } = await execFileAsync('chroot', [
        root,
        '/bin/sh',
        '-c',
        'id -u berth; stat -c "%a %u:%g" /tmp /home/berth; [ /bin/ls -ef /bin/busybox ] && echo same-inode',
      ]);
      expect(stdout.split('\n')).toEqual(['1000', '1777 0:0', '755 1000:1000', 'same-inode', '']);
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  });
});

describe('docker-save archive', () => {
  test(`names ${BUSYBOX_DOCKER_IMAGE} and holds the same config and layer as the OCI archive`, async () => {
    const oci = await readOciArchive(paths.busyboxOci);
    const files = byName(await readTarRecords(await readFile(paths.busyboxDocker)));
    const manifest: unknown = JSON.parse(files.get('manifest.json')?.data.toString() ?? 'null');
    expect(manifest).toEqual([{ Config: expect.any(String), RepoTags: [BUSYBOX_DOCKER_IMAGE], Layers: [expect.any(String)] }]);
    const [{ Config, Layers }] = manifest as Array<{ Config: string; Layers: string[] }>;
    const config = files.get(Config)?.data ?? Buffer.alloc(0);
    expect(`sha256:${Config.replace(/\.json$/, '')}`).toBe(sha256(config));
    expect(config.equals(oci.files.get(`blobs/sha256/${oci.manifest.config.digest.slice(7)}`)?.data ?? Buffer.alloc(0))).toBe(true);
    const layer = files.get(Layers[0])?.data ?? Buffer.alloc(0);
    expect(sha256(layer)).toBe(oci.config.rootfs.diff_ids[0]);
    const repositories: unknown = JSON.parse(files.get('repositories')?.data.toString() ?? 'null');
    expect(repositories).toEqual({ 'berth.test/busybox': { docker: Layers[0].split('/')[0] } });
  });
});

describe('pause image', () => {
  test('runs /pause as 65535:65535, has no shell, and carries the built binary', async () => {
    const { config, layerTars } = await readOciArchive(paths.pauseOci);
    expect(config.config).toMatchObject({ User: '65535:65535', Entrypoint: ['/pause'] });
    expect(config.config?.Cmd).toBeUndefined();
    const records = await readTarRecords(layerTars[0]);
    expect(records.map((r) => r.header.name)).toEqual(['pause']);
    expect(records[0].header.mode).toBe(0o755);
    expect(records[0].data.equals(await readFile(paths.pauseBinary))).toBe(true);
  });
});

describe('layers3 image', () => {
  let layerTars: Buffer[];
  beforeAll(async () => {
    const image = await readOciArchive(paths.layers3Oci);
    layerTars = image.layerTars;
    expect(image.manifest.layers.map((l) => l.mediaType)).toEqual([
      'application/vnd.oci.image.layer.v1.tar+gzip',
      'application/vnd.oci.image.layer.v1.tar+gzip',
      'application/vnd.oci.image.layer.v1.tar',
    ]);
    // Layer 1 is the busybox image's layer, blob for blob: importers share it.
    const busybox = await readOciArchive(paths.busyboxOci);
    expect(image.manifest.layers[0]).toEqual(busybox.manifest.layers[0]);
    expect(image.config.config?.Cmd).toEqual(['sh']);
  });

  test('layer 2 has 4000 files in 40 directories, symlinks and hard links', async () => {
    const records = await readTarRecords(layerTars[1]);
    const files = records.filter((r) => r.header.type === 'file' && /^opt\/berth\/d\d\d\/f\d{3}\.txt$/.test(r.header.name));
    expect(files).toHaveLength(4000);
    expect(new Set(files.map((f) => f.header.name.split('/')[2])).size).toBe(40);
    const entries = byName(records);
    expect(entries.get('opt/berth/d05/rel-link')?.header).toMatchObject({ type: 'symlink', linkname: 'f000.txt' });
    expect(entries.get('opt/berth/d05/abs-link')?.header).toMatchObject({ type: 'symlink', linkname: '/opt/berth/d05/f001.txt' });
    expect(entries.get('opt/berth/d05/hard-f002')?.header).toMatchObject({ type: 'link', linkname: 'opt/berth/d05/f002.txt' });
    expect(entries.get('opt/berth/d39/hard-from-d00')?.header).toMatchObject({ type: 'link', linkname: 'opt/berth/d00/f003.txt' });
    expect(entries.get('opt/berth/d05/f007.txt')?.header).toMatchObject({ mode: 0o600, uid: 1000, gid: 1000 });
    expect(entries.get(LAYER3_CHANGES.whitedOut)?.header.type).toBe('file');
  });

  test('layer 3 has a 50 MiB incompressible file, a whiteout and an opaque directory', async () => {
    const entries = byName(await readTarRecords(layerTars[2]));
    const big = entries.get(BIG_FILE_PATH)?.data ?? Buffer.alloc(0);
    expect(big.length).toBe(BIG_FILE_SIZE);
    const sample = big.subarray(BIG_FILE_SIZE - (1 << 20));
    expect(gzipSync(sample).length).toBeGreaterThan(sample.length * 0.99);
    const dir = LAYER3_CHANGES.whitedOut.slice(0, LAYER3_CHANGES.whitedOut.lastIndexOf('/'));
    expect(entries.get(`${dir}/.wh.f050.txt`)?.header).toMatchObject({ type: 'file', size: 0 });
    expect(entries.get(`${LAYER3_CHANGES.opaqueDir}/.wh..wh..opq`)?.header).toMatchObject({ type: 'file', size: 0 });
    expect(entries.get(LAYER3_CHANGES.replacedFile)?.data.toString()).toBe(LAYER3_CHANGES.replacedContent);
  });
});

// berthctl's image verbs through a real berthd and a real registry on loopback: what a user runs
// after `make run` (pull, images ls in its forms), export + import taking an image back, rmi, gc of
// what no image references, du, and the progress bar on a terminal.
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { startBerthd, type RunningBerthd } from '../../harness/daemon';
import { BUSYBOX_IMAGE, testImages, type TestImagePaths } from '../../harness/images';
import { pushImage, startRegistry, type RunningRegistry } from '../../harness/registry';
import { blobsOnDisk, committedSnapshots } from '../cri_images/env';
import { cli, cliOnTerminal, tableRows } from './env';

jest.setTimeout(240_000);

describe('berthctl images', () => {
  let paths: TestImagePaths;
  let registry: RunningRegistry;
  let daemon: RunningBerthd;
  let scratch: string;
  let image: string; // "127.0.0.1:<port>/berth/busybox:1"
  let imageId: string;
  const run = (...args: string[]) => cli(daemon.socket, ...args);

  beforeAll(async () => {
    paths = await testImages();
    registry = await startRegistry();
    await pushImage(registry.url, paths.busyboxOci, 'berth/busybox:1');
    image = `${registry.host}/berth/busybox:1`;
    scratch = mkdtempSync(join(tmpdir(), 'berthctl-images-'));
    daemon = await startBerthd();
  });

  afterAll(async () => {
    await daemon?.stop();
    await registry?.stop();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it('pulls from a registry and prints crictl\'s line', async () => {
    const pulled = await run('pull', image);
    expect(pulled).toMatchObject({ code: 0, stderr: '' });
    const match = /^Image is up to date for (sha256:[0-9a-f]{64})\n$/.exec(pulled.stdout);
    expect(match).not.toBeNull();
    imageId = match![1]!;
  });

  it('lists it as a crictl table, IDs truncated unless --no-trunc', async () => {
    const ls = await run('images', 'ls');
    expect(ls.code).toBe(0);
    const rows = tableRows(ls.stdout);
    expect(rows[0]).toEqual(['IMAGE', 'TAG', 'IMAGE ID', 'SIZE']);
    expect(rows.slice(1)).toEqual([[`${registry.host}/berth/busybox`, '1', imageId.slice(7, 20), expect.stringMatching(/^[\d.]+(kB|MB)$/)]]);
    // crictl's spelling (no subverb) lists too; --no-trunc shows the whole ID.
    expect(tableRows((await run('images', '--no-trunc')).stdout)[1]?.[2]).toBe(imageId);
    const digests = tableRows((await run('images', 'ls', '--digests')).stdout);
    expect(digests[0]).toEqual(['IMAGE', 'TAG', 'DIGEST', 'IMAGE ID', 'SIZE']);
    expect(digests[1]?.[2]).toMatch(/^[0-9a-f]{13}$/);
  });

  it('prints IDs with -q, and the protobuf JSON mapping with -o json and -o yaml', async () => {
    expect(await run('images', 'ls', '-q')).toEqual({ code: 0, stdout: `${imageId}\n`, stderr: '' });
    const json = JSON.parse((await run('images', 'ls', '-o', 'json')).stdout) as { images: Array<Record<string, unknown>> };
    expect(json.images).toHaveLength(1);
    expect(json.images[0]).toMatchObject({ id: imageId, repoTags: [image], repoDigests: [expect.stringMatching(/@sha256:/)], size: expect.stringMatching(/^\d+$/) });
    const yaml = parseYaml((await run('images', 'ls', '-o', 'yaml')).stdout) as typeof json;
    expect(yaml).toEqual(json);
    expect(await run('images', 'ls', '-o', 'xml')).toMatchObject({ code: 2, stderr: expect.stringContaining('unsupported output format "xml"') });
  });

  it('exports an OCI archive that import takes back after rmi, with the same ID', async () => {
    const archive = join(scratch, 'busybox.tar');
    expect(await run('images', 'export', image, archive)).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(statSync(archive).size).toBeGreaterThan(100_000);

    expect(await run('rmi', image)).toEqual({ code: 0, stdout: `Deleted: ${image}\n`, stderr: '' });
    expect((await run('images', 'ls', '-q')).stdout).toBe('');
    expect(await run('images', 'rm', image)).toMatchObject({ code: 1, stderr: `berthctl: rm: no such image "${image}"\n` });

    expect(await run('images', 'import', archive)).toEqual({ code: 0, stdout: `${image}\t${imageId}\n`, stderr: '' });
    expect((await run('images', 'ls', '-q')).stdout).toBe(`${imageId}\n`);
  });

  it('exports to stdout, and names an unknown image with NOT_FOUND', async () => {
    const toStdout = await run('images', 'export', imageId.slice(7, 19));
    expect(toStdout.code).toBe(0);
    expect(toStdout.stdout.length).toBeGreaterThan(100_000); // a tar stream: oci-layout comes first
    expect(toStdout.stdout.slice(0, 10)).toBe('oci-layout');
    const missing = join(scratch, 'missing.tar');
    const absent = await run('images', 'export', 'berth.test/absent:1', missing);
    expect(absent).toMatchObject({ code: 1, stdout: '' });
    expect(absent.stderr).toMatch(/^berthctl: images export: .*not found \(NOT_FOUND\)\n$/);
    expect(existsSync(missing)).toBe(false);
  });

  it('a failed export leaves what was at the path: a file as it was, a device node in place', async () => {
    const precious = join(scratch, 'precious.txt');
    writeFileSync(precious, 'precious');
    expect(await run('images', 'export', 'berth.test/absent:1', precious)).toMatchObject({ code: 1, stdout: '' });
    expect(readFileSync(precious, 'utf8')).toBe('precious');
    // Copies of /dev/null and /dev/full made here (a typo'd export to /dev/null must not unlink it).
    const devNull = join(scratch, 'null');
    const devFull = join(scratch, 'full');
    execFileSync('mknod', [devNull, 'c', '1', '3']);
    execFileSync('mknod', [devFull, 'c', '1', '7']);
    expect(await run('images', 'export', 'berth.test/absent:1', devNull)).toMatchObject({ code: 1 });
    const full = await run('images', 'export', image, devFull);
    expect(full).toMatchObject({ code: 1, stderr: expect.stringContaining('ENOSPC') });
    for (const node of [devNull, devFull]) expect(lstatSync(node).isCharacterDevice()).toBe(true);
    // A whole export replaces the file, and leaves no temporary file beside it.
    expect(await run('images', 'export', image, precious)).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(statSync(precious).size).toBeGreaterThan(100_000);
    expect(readdirSync(scratch).filter((name) => name.includes('berthctl-'))).toEqual([]);
  });

  it('gc removes a blob no image references, and reports it', async () => {
    // What an interrupted pull leaves: a verified blob no image names.
    const stray = Buffer.from('left behind by an interrupted pull\n');
    const hex = createHash('sha256').update(stray).digest('hex');
    writeFileSync(join(daemon.root, 'content', 'blobs', 'sha256', hex), stray, { mode: 0o444 });
    const gc = await run('gc', '-v');
    expect(gc.code).toBe(0);
    expect(gc.stdout).toContain(`Deleted blob: sha256:${hex}\n`);
    expect(gc.stdout).toMatch(/^Removed 1 blobs and 0 snapshots, reclaimed 35B$/m);
    expect(blobsOnDisk(daemon.root)).not.toContain(`sha256:${hex}`);
    expect(blobsOnDisk(daemon.root)).toContain(imageId); // the image's own blobs stay
    expect(JSON.parse((await run('gc', '-o', 'json')).stdout)).toEqual({ removedBlobs: [], removedSnapshots: [], reclaimedBytes: '0' });
  });

  it('du reports content, snapshots, writable layers and logs', async () => {
    const du = await run('du');
    expect(du.code).toBe(0);
    const rows = tableRows(du.stdout);
    expect(rows[0]).toEqual(['TYPE', 'COUNT', 'SIZE']);
    expect(rows.map((r) => r[0])).toEqual(['TYPE', 'Images (content)', 'Snapshots (layers)', 'Writable layers', 'Container logs']);
    const json = JSON.parse((await run('du', '-o', 'json')).stdout) as Record<string, { count: string; bytes: string }>;
    expect(json.images).toEqual({ count: '3', bytes: expect.stringMatching(/^\d+$/) }); // manifest, config, one layer
    expect(Number(json.images!.bytes)).toBeGreaterThan(100_000);
    expect(json.snapshots!.count).toBe(String(committedSnapshots(daemon.root).length));
    expect(Number(json.snapshots!.bytes)).toBeGreaterThan(100_000);
    expect(json.writableLayers).toEqual({ count: '0', bytes: '0' });
    expect(json.logs).toEqual({ count: '0', bytes: '0' });
  });

  it('draws a progress bar for pull and import on a terminal, plain lines otherwise', async () => {
    await run('rmi', image);
    const pulled = await cliOnTerminal(daemon.socket, 'pull', image);
    expect(pulled.code).toBe(0);
    expect(pulled.stdout).toContain(`pulling ${image}`);
    expect(pulled.stdout).toContain(`Image is up to date for ${imageId}`);

    const imported = await cliOnTerminal(daemon.socket, 'images', 'import', paths.busyboxOci);
    expect(imported.code).toBe(0);
    // The bar fills up to the archive's size (cli-progress draws with = and - without a UTF-8 locale).
    const size = `${Number((statSync(paths.busyboxOci).size / 1e6).toPrecision(3))}MB`;
    expect(imported.stdout).toMatch(new RegExp(`importing .*busybox-oci\\.tar \\|[=█]{30}\\| ${size.replace('.', '\\.')} / ${size.replace('.', '\\.')}`));
    expect(imported.stdout).toContain(`${BUSYBOX_IMAGE}\t${imageId}`);
    // Not a terminal: the result line only, nothing drawn (the earlier tests' exact outputs).
    const plain = await run('images', 'import', paths.busyboxOci);
    expect(plain).toEqual({ code: 0, stdout: `${BUSYBOX_IMAGE}\t${imageId}\n`, stderr: '' });
  });
});

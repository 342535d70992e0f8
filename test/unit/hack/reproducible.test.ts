// The image generator writes the same bytes on every run, leaves nothing half-written behind,
// and skips archives whose inputs have not changed.
import { mkdir, mkdtemp, readdir, readFile, rm, stat, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildTestImages, type TestImagePaths } from '../../../hack/images/build';

const EXPECTED_FILES = [
  'busybox-docker.tar',
  'busybox-docker.tar.stamp',
  'busybox-oci.tar',
  'busybox-oci.tar.stamp',
  'layers3-oci.tar',
  'layers3-oci.tar.stamp',
  'pause',
  'pause-oci.tar',
  'pause-oci.tar.stamp',
  'pause.stamp',
];

describe('hack/images build', () => {
  let first: string;
  let second: string;
  let firstPaths: TestImagePaths;

  beforeAll(async () => {
    first = await mkdtemp(join(tmpdir(), 'berth-images-a-'));
    second = await mkdtemp(join(tmpdir(), 'berth-images-b-'));
    firstPaths = await buildTestImages(first);
    await buildTestImages(second);
  });

  afterAll(async () => {
    await rm(first, { recursive: true, force: true });
    await rm(second, { recursive: true, force: true });
  });

  test('two builds into different directories are byte-identical', async () => {
    for (const name of EXPECTED_FILES.filter((n) => !n.endsWith('.stamp'))) {
      const [a, b] = await Promise.all([readFile(join(first, name)), readFile(join(second, name))]);
      expect({ name, size: b.length, equal: a.equals(b) }).toEqual({ name, size: a.length, equal: true });
    }
  });

  test('the output directory holds the archives and stamps only, no temp files or lock', async () => {
    expect((await readdir(first)).sort()).toEqual(EXPECTED_FILES);
    expect(firstPaths.layers3Oci).toBe(join(first, 'layers3-oci.tar'));
    // ~58 MB: the bench image's size is part of what it measures.
    expect((await stat(firstPaths.layers3Oci)).size).toBeGreaterThan(55 * 1000 * 1000);
  });

  test('a rebuild with unchanged inputs rewrites nothing', async () => {
    const before = await Promise.all(EXPECTED_FILES.map(async (n) => (await stat(join(first, n))).ino));
    await buildTestImages(first);
    const after = await Promise.all(EXPECTED_FILES.map(async (n) => (await stat(join(first, n))).ino));
    expect(after).toEqual(before);
  });

  test('a damaged archive is rebuilt to the same bytes', async () => {
    const original = await readFile(firstPaths.busyboxOci);
    await truncate(firstPaths.busyboxOci, 1000);
    const lines: string[] = [];
    await buildTestImages(first, { progress: (line) => lines.push(line) });
    expect(lines).toContain(`built: ${firstPaths.busyboxOci}`);
    expect((await readFile(firstPaths.busyboxOci)).equals(original)).toBe(true);
  });

  test('temp files and a stale lock left by a killed build are swept', async () => {
    await writeFile(join(first, '.layers3-oci.tar.tmp-99999-0123abcd'), 'partial');
    // A lock whose owner no longer exists (PIDs above pid_max never do).
    await mkdir(join(first, '.build.lock'));
    await writeFile(join(first, '.build.lock', 'pid'), '2147483646');
    await buildTestImages(first);
    expect((await readdir(first)).sort()).toEqual(EXPECTED_FILES);
  });
});

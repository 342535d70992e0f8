// test/harness/images.ts hands any test the cached images, building them when missing.
import { access, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { BUSYBOX_IMAGE, PAUSE_IMAGE, testImages, testImagesDir } from '../../harness/images';
import { readOciArchiveIndex } from '../../../hack/images/read-archive';

test('testImages() returns existing archives under <repo>/.cache/images', async () => {
  const paths = await testImages();
  expect(testImagesDir()).toBe(join(__dirname, '..', '..', '..', '.cache', 'images'));
  for (const path of Object.values(paths)) {
    expect(path.startsWith(testImagesDir())).toBe(true);
    await access(path);
  }
  expect((await stat(paths.pauseBinary)).mode & 0o777).toBe(0o755);
  const index = await readOciArchiveIndex(paths.busyboxOci);
  expect(index.manifests[0].annotations?.['io.containerd.image.name']).toBe(BUSYBOX_IMAGE);
  expect((await readOciArchiveIndex(paths.pauseOci)).manifests[0].annotations?.['io.containerd.image.name']).toBe(PAUSE_IMAGE);
  // A second call in the same process shares the first build.
  expect(await testImages()).toBe(paths);
});

// The reproducible test images for any test: paths under <repo>/.cache/images, built through the
// hack/images library on first use (a no-op when `make images` already ran and nothing changed),
// so a single jest file works on a fresh checkout.
import { join } from 'node:path';
import { buildTestImages, repoRoot, type TestImagePaths } from '../../hack/images/build';

export {
  BUSYBOX_DOCKER_IMAGE,
  BUSYBOX_IMAGE,
  CREATED,
  DEFAULT_PATH_ENV,
  LAYERS3_IMAGE,
  PAUSE_IMAGE,
} from '../../hack/images/names';
export { BERTH_USER } from '../../hack/images/busybox';
export { PAUSE_USER } from '../../hack/images/pause';
export { BIG_FILE_PATH, BIG_FILE_SIZE, LAYER3_CHANGES } from '../../hack/images/layers3';
export type { TestImagePaths } from '../../hack/images/build';

export const testImagesDir = (): string => join(repoRoot(), '.cache', 'images');

let building: Promise<TestImagePaths> | undefined;

/** Paths of the test image archives (and the host-runnable pause binary), built when missing. */
export function testImages(): Promise<TestImagePaths> {
  building ??= buildTestImages(testImagesDir()).catch((err: unknown) => {
    building = undefined; // let a later call retry instead of caching the failure
    throw err;
  });
  return building;
}

// Names and fixed facts of the test images. Tests and benchmarks import these instead of repeating
// strings, so renaming an image is one edit.

/** Bumped whenever the generator's output changes, so cached archives are rebuilt. */
export const GENERATOR_VERSION = 'berth-images-1';

/** Every timestamp in every image: tar mtimes, config `created`, history. */
export const CREATED = '2024-01-01T00:00:00Z';
export const CREATED_DATE = new Date(CREATED);

export const BUSYBOX_IMAGE = 'docker.io/library/busybox:latest';
/** The docker-save archive uses a distinct name so importing both archives yields two images. */
export const BUSYBOX_DOCKER_IMAGE = 'berth.test/busybox:docker';
export const PAUSE_IMAGE = 'registry.k8s.io/pause:3.9';
export const LAYERS3_IMAGE = 'berth.test/layers3:latest';

export const DEFAULT_PATH_ENV = 'PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/** Archive file names inside the output directory. */
export const ARCHIVE_FILES = {
  busyboxOci: 'busybox-oci.tar',
  busyboxDocker: 'busybox-docker.tar',
  pauseOci: 'pause-oci.tar',
  layers3Oci: 'layers3-oci.tar',
} as const;

/** The compiled pause binary, kept next to the archives. */
export const PAUSE_BINARY_FILE = 'pause';

/** "registry/repo:tag" -> the tag, as `org.opencontainers.image.ref.name` carries it. */
export function tagOf(name: string): string {
  const slash = name.lastIndexOf('/');
  const colon = name.lastIndexOf(':');
  if (colon <= slash) throw new Error(`image name ${name} has no tag`);
  return name.slice(colon + 1);
}

/** "registry/repo:tag" -> "registry/repo". */
export function repositoryOf(name: string): string {
  return name.slice(0, name.length - tagOf(name).length - 1);
}

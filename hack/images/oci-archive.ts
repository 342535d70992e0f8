// Writes an image as an OCI image-layout tar (what `ctr export` / `docker save` with containerd
// store produce): oci-layout, index.json naming the image, blobs/sha256/<hex>.
import { canonicalJson } from './canonical-json';
import { writeFileAtomic } from './atomic-file';
import { descriptorJson, hexOf, MEDIA_TYPES, type BuiltImage } from './image';
import { tagOf } from './names';
import { tarChunks, type TarEntry } from './tarball';

export const ANNOTATION_IMAGE_NAME = 'io.containerd.image.name';
export const ANNOTATION_REF_NAME = 'org.opencontainers.image.ref.name';

export function ociArchiveEntries(image: BuiltImage): TarEntry[] {
  const index = {
    schemaVersion: 2,
    mediaType: MEDIA_TYPES.index,
    manifests: [
      {
        ...descriptorJson(image.manifestDescriptor),
        annotations: { [ANNOTATION_IMAGE_NAME]: image.name, [ANNOTATION_REF_NAME]: tagOf(image.name) },
        platform: { architecture: 'amd64', os: 'linux' },
      },
    ],
  };
  const blob = (digest: string, data: Buffer): TarEntry => ({
    kind: 'file',
    path: `blobs/sha256/${hexOf(digest)}`,
    mode: 0o644,
    data,
  });
  return [
    { kind: 'file', path: 'oci-layout', mode: 0o644, data: Buffer.from(canonicalJson({ imageLayoutVersion: '1.0.0' })) },
    { kind: 'file', path: 'index.json', mode: 0o644, data: Buffer.from(canonicalJson(index)) },
    blob(image.manifestDescriptor.digest, image.manifest),
    blob(image.configDescriptor.digest, image.config),
    ...image.layers.map((l) => blob(l.descriptor.digest, l.blob)),
  ];
}

export async function writeOciArchive(path: string, image: BuiltImage): Promise<void> {
  await writeFileAtomic(path, tarChunks(ociArchiveEntries(image)));
}

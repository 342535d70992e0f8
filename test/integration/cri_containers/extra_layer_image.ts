// A test image made on the fly: the busybox test image's layer plus layers of `entries` (e.g. an
// /etc/group of its own), optionally declaring VOLUMEs, written as an OCI archive under `dir` and
// imported through Admin/ImportImage.
import { join } from 'node:path';
import { MEDIA_TYPES, sha256Digest, type BuiltImage, type BuiltLayer } from '../../../hack/images/image';
import { DEFAULT_PATH_ENV } from '../../../hack/images/names';
import { writeOciArchive } from '../../../hack/images/oci-archive';
import { readOciArchive } from '../../../hack/images/read-archive';
import type { CriClient } from '../../harness/cri_client';
import { testImages } from '../../harness/images';
import { buildTar, type TarEntry } from '../archive/tarball';

function layerOf(tar: Buffer): BuiltLayer {
  const digest = sha256Digest(tar);
  return { tar, diffId: digest, blob: tar, descriptor: { mediaType: MEDIA_TYPES.layerTar, digest, size: tar.length } };
}

export async function importBusyboxWith(client: CriClient, dir: string, name: string, entries: TarEntry[], volumes: string[] = []): Promise<void> {
  await importBusyboxWithLayers(client, dir, name, [entries], volumes);
}

/** As importBusyboxWith, with a layer for each of `layerEntries`, in order, above busybox's. */
export async function importBusyboxWithLayers(client: CriClient, dir: string, name: string, layerEntries: TarEntry[][], volumes: string[] = []): Promise<void> {
  const busybox = await readOciArchive((await testImages()).busyboxOci);
  const layers = [layerOf(busybox.layerTars[0]!), ...(await Promise.all(layerEntries.map(async (entries) => layerOf(await buildTar(entries)))))];
  const config = Buffer.from(
    JSON.stringify({
      architecture: 'amd64',
      os: 'linux',
      config: { Env: [DEFAULT_PATH_ENV], Cmd: ['sh'], ...(volumes.length > 0 ? { Volumes: Object.fromEntries(volumes.map((v) => [v, {}])) } : {}) },
      rootfs: { type: 'layers', diff_ids: layers.map((l) => l.diffId) },
    }),
  );
  const configDescriptor = { mediaType: MEDIA_TYPES.config, digest: sha256Digest(config), size: config.length };
  const manifest = Buffer.from(
    JSON.stringify({ schemaVersion: 2, mediaType: MEDIA_TYPES.manifest, config: configDescriptor, layers: layers.map((l) => l.descriptor) }),
  );
  const manifestDescriptor = { mediaType: MEDIA_TYPES.manifest, digest: sha256Digest(manifest), size: manifest.length };
  const image: BuiltImage = { name, layers, config, configDescriptor, manifest, manifestDescriptor };
  const archive = join(dir, `${name.replace(/[/:]/g, '_')}.tar`);
  await writeOciArchive(archive, image);
  await client.admin.ImportImage({ path: archive, name: '' });
}

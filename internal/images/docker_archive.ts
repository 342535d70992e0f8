// `docker save` archives: manifest.json lists, per image, its RepoTags, its config file and its
// layer files. We build a Docker schema2 manifest for each, keep the config blob as is and the layers
// as they were stored (usually uncompressed tars), checking each uncompressed layer against the
// config's diff_ids since its path does not name its digest.
import { z } from 'zod/v3';
import type { ContentLease, Descriptor, ManagedContentStore } from '../content/types';
import { sha256Digest } from '../content/digest';
import { failedPrecondition, invalidArgument } from '../errdefs/errors';
import { blobAt, startsWithGzipMagic, type ArchiveContents } from './archive_reader';
import { MAX_CONFIG_BYTES, readDocument } from './document';
import { MediaType, parseImageConfig } from './oci';

const dockerManifestSchema = z.array(
  z.object({
    Config: z.string(),
    RepoTags: z.array(z.string()).nullish(),
    Layers: z.array(z.string()),
  }),
);

export interface ArchiveImage {
  target: Descriptor;
  /** Reference strings as the archive spells them (not yet normalised). */
  names: string[];
}

export async function dockerArchiveImages(
  contents: ArchiveContents,
  content: ManagedContentStore,
  lease: ContentLease,
  archivePath: string,
): Promise<ArchiveImage[]> {
  const raw = contents.metadata.get('manifest.json') as Buffer;
  let entries: z.infer<typeof dockerManifestSchema>;
  try {
    entries = dockerManifestSchema.parse(JSON.parse(raw.toString('utf8')));
  } catch (err) {
    throw invalidArgument(`image archive ${archivePath}: bad manifest.json: ${(err as Error).message}`);
  }
  const images: ArchiveImage[] = [];
  for (const entry of entries) {
    const configInfo = blobAt(contents, entry.Config, archivePath);
    const configWhat = `image archive ${archivePath}: config ${entry.Config}`;
    const config = parseImageConfig(
      configWhat,
      await readDocument(content, { mediaType: MediaType.dockerConfig, digest: configInfo.digest, size: configInfo.size }, MAX_CONFIG_BYTES, configWhat),
    );
    if (config.diffIds.length !== entry.Layers.length) {
      throw invalidArgument(
        `image archive ${archivePath}: config ${entry.Config} has ${config.diffIds.length} diff_ids for ${entry.Layers.length} layers`,
      );
    }
    const layers: Descriptor[] = [];
    for (const [i, layerPath] of entry.Layers.entries()) {
      const info = blobAt(contents, layerPath, archivePath);
      const gzip = await startsWithGzipMagic(content.blobPath(info.digest));
      if (!gzip && info.digest !== config.diffIds[i]) {
        throw failedPrecondition(
          `image archive ${archivePath}: layer ${layerPath} has digest ${info.digest}, config diff_id is ${config.diffIds[i]}`,
        );
      }
      layers.push({ mediaType: gzip ? MediaType.dockerLayerGzip : MediaType.dockerLayer, digest: info.digest, size: info.size });
    }
    const manifest = Buffer.from(
      JSON.stringify({
        schemaVersion: 2,
        mediaType: MediaType.dockerManifest,
        config: { mediaType: MediaType.dockerConfig, size: configInfo.size, digest: configInfo.digest },
        layers,
      }),
    );
    const digest = sha256Digest(manifest);
    await content.writeBytes({ digest, size: manifest.length }, manifest, lease);
    images.push({
      target: { mediaType: MediaType.dockerManifest, digest, size: manifest.length },
      names: entry.RepoTags ?? [],
    });
  }
  return images;
}

// Importing image archives: OCI image layouts (oci-layout + index.json + blobs/) and `docker save`
// archives (manifest.json). Blobs are verified as they stream out of the tar; images are resolved
// for our platform (every blob they need must be there), optionally unpacked by the caller, and
// only then recorded. A failure removes the blobs this import added.
import type { ManagedContentStore } from '../content/types';
import { invalidArgument, notFound } from '../errdefs/errors';
import { silentLogger, type Logger } from '../log/logger';
import { readArchive } from './archive_reader';
import { dockerArchiveImages, type ArchiveImage } from './docker_archive';
import { collectGarbage } from './gc';
import { parseIndex } from './oci';
import { formatReference, parseNormalizedNamed, parseReference, repositoryOf } from './reference';
import type { ImageRecord, ImageStore, NewImage } from './store';
import { hostPlatform, resolveImage, type Platform, type ResolvedImage } from './walk';

/** containerd's own annotation for the full image name. */
export const ANNOTATION_IMAGE_NAME = 'io.containerd.image.name';
export const ANNOTATION_REF_NAME = 'org.opencontainers.image.ref.name';

/** What an unpack callback gets: the resolved image and the names it is about to be recorded under. */
export interface UnpackRequest extends ResolvedImage {
  names: string[];
  /**
   * Resolves once layer `index`'s blob is in the content store, rejecting when it cannot be
   * (a pull unpacks while downloading). Absent: every blob is already there.
   */
  layerReady?: (index: number) => Promise<void>;
}

export type UnpackFn = (image: UnpackRequest) => Promise<void>;

export interface ImportOptions {
  /**
   * Names an image the archive leaves unnamed; when the archive only gives a bare tag as
   * org.opencontainers.image.ref.name, the tag is put on this name's repository.
   */
  name?: string;
  platform?: Platform;
  labels?: Record<string, string>;
  unpack?: UnpackFn;
}

export interface ImageDeps {
  content: ManagedContentStore;
  images: ImageStore;
  logger?: Logger;
}

/** Full name for an OCI index entry, following containerd's import: image.name, else ref.name. */
function ociEntryName(annotations: Record<string, string> | undefined, base: string | undefined): string | undefined {
  const full = annotations?.[ANNOTATION_IMAGE_NAME];
  if (full) return full;
  const ref = annotations?.[ANNOTATION_REF_NAME];
  if (!ref) return undefined;
  // A ref.name with a '/', ':' or '@' is a whole reference; otherwise it is only a tag.
  if (/[/:@]/.test(ref)) return ref;
  return base ? `${repositoryOf(parseNormalizedNamed(base))}:${ref}` : undefined;
}

function ociArchiveImages(index: Buffer, archivePath: string, base: string | undefined): ArchiveImage[] {
  const parsed = parseIndex(`image archive ${archivePath}: index.json`, index);
  return parsed.manifests.map((desc) => {
    const name = ociEntryName(desc.annotations, base);
    return {
      target: { mediaType: desc.mediaType, digest: desc.digest, size: desc.size },
      names: name ? [name] : [],
    };
  });
}

export async function importArchive(deps: ImageDeps, archivePath: string, opts: ImportOptions = {}): Promise<ImageRecord[]> {
  const { content, images } = deps;
  const log = (deps.logger ?? silentLogger).with({ archive: archivePath });
  const lease = content.lease();
  try {
    const contents = await readArchive(archivePath, content, lease);
    let found: ArchiveImage[];
    if (contents.metadata.has('index.json')) {
      found = ociArchiveImages(contents.metadata.get('index.json') as Buffer, archivePath, opts.name);
    } else if (contents.metadata.has('manifest.json')) {
      found = await dockerArchiveImages(contents, content, lease, archivePath);
    } else {
      throw invalidArgument(`image archive ${archivePath}: neither index.json (OCI layout) nor manifest.json (docker save)`);
    }
    if (found.length === 0) throw notFound(`image archive ${archivePath} holds no image`);

    const toRecord: NewImage[] = [];
    for (const image of found) {
      const names = image.names.length > 0 ? image.names : opts.name ? [opts.name] : [];
      if (names.length === 0) {
        throw invalidArgument(`image archive ${archivePath}: image ${image.target.digest} has no name; pass a name to import it`);
      }
      const normalized = [...new Set(names.map((n) => formatReference(parseReference(n))))];
      const resolved = await resolveImage(content, image.target, opts.platform ?? hostPlatform(), `image ${normalized[0]}`);
      if (opts.unpack) await opts.unpack({ ...resolved, names: normalized });
      for (const name of normalized) {
        toRecord.push({ name, target: image.target, configDigest: resolved.configDesc.digest, labels: opts.labels });
      }
    }
    const recorded = images.putAll(toRecord);
    log.info('imported images', { names: recorded.map((r) => r.name) });
    return recorded;
  } catch (err) {
    lease.release();
    const removed = await collectGarbage(content, images, lease.created).catch(() => []);
    log.warn('import failed; removed the blobs it added', { error: err, removed: removed.length });
    throw err;
  } finally {
    lease.release();
  }
}

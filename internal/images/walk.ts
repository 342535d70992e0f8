// Walking an image's content: target (index or manifest) -> the manifest for our platform ->
// config + layers. Also the set of blobs every recorded image keeps alive, for GC.
import type { ContentStore, Descriptor } from '../content/types';
import { failedPrecondition, invalidArgument, isNotFound, kindOf, notFound, wrap } from '../errdefs/errors';
import { MAX_CONFIG_BYTES, MAX_MANIFEST_BYTES, readDocument } from './document';
import {
  imageLayers,
  isIndexType,
  isManifestType,
  parseImageConfig,
  parseIndex,
  parseManifest,
  type ImageConfig,
  type Index,
  type Manifest,
} from './oci';
import { formatPlatform, hostPlatform, onlyPlatform, type Platform, type PlatformMatcher } from './platforms';

export { formatPlatform, hostPlatform, type Platform } from './platforms';

/**
 * The manifest of an index a node of `platform` runs, as containerd's images.Manifest picks it:
 * among the entries it can run, its own platform first (platforms.ts), entries that name none last
 * (their config then decides, in resolveImage).
 */
export function selectManifest(index: Index, platform: PlatformMatcher, what: string): Descriptor {
  const candidates = index.manifests.filter(
    (d) => (isManifestType(d.mediaType) || isIndexType(d.mediaType)) && (d.platform === undefined || platform.match(d.platform)),
  );
  // Stable, as containerd's sort.SliceStable: equal entries keep the index's order.
  candidates.sort((a, b) => {
    if (!a.platform || !b.platform) return (a.platform ? 0 : 1) - (b.platform ? 0 : 1);
    return platform.less(a.platform, b.platform) ? -1 : platform.less(b.platform, a.platform) ? 1 : 0;
  });
  const found = candidates[0];
  if (!found) throw notFound(`${what}: no manifest for platform ${formatPlatform(platform.wanted)}`);
  return found;
}

/** Indexes within indexes followed down to a manifest; content addressing rules out a cycle. */
export const MAX_INDEX_DEPTH = 16;

/** An image resolved down to what a container needs. */
export interface ResolvedImage {
  /** What the image record points at: an index or a manifest. */
  target: Descriptor;
  manifestDesc: Descriptor;
  manifest: Manifest;
  configDesc: Descriptor;
  config: ImageConfig;
  /** Layer descriptors, base first. */
  layers: Descriptor[];
}

/** A document of the image, size-checked against `limit` before it is read into memory. */
async function readBlob(content: ContentStore, desc: Descriptor, limit: number, what: string): Promise<Buffer> {
  try {
    return await readDocument(content, desc, limit, `blob ${desc.digest} (${desc.mediaType})`);
  } catch (err) {
    if (isNotFound(err)) throw failedPrecondition(`${what}: blob ${desc.digest} (${desc.mediaType}) is missing from the content store`);
    throw wrap(err, what);
  }
}

/** Resolves `target` through nested indexes to the platform manifest, its config and layers. */
export async function resolveImage(
  content: ContentStore,
  target: Descriptor,
  platform: Platform = hostPlatform(),
  what = `image ${target.digest}`,
): Promise<ResolvedImage> {
  const matcher = onlyPlatform(platform);
  let desc = target;
  let unnamedPlatform = false;
  for (let depth = 0; depth <= MAX_INDEX_DEPTH; depth++) {
    if (isIndexType(desc.mediaType)) {
      const index = parseIndex(`${what}: index ${desc.digest}`, await readBlob(content, desc, MAX_MANIFEST_BYTES, what));
      desc = selectManifest(index, matcher, `${what}: index ${desc.digest}`);
      unnamedPlatform = desc.platform === undefined;
      continue;
    }
    if (!isManifestType(desc.mediaType)) {
      throw invalidArgument(`${what}: unsupported media type ${JSON.stringify(desc.mediaType)} for ${desc.digest}`);
    }
    const manifest = parseManifest(`${what}: manifest ${desc.digest}`, await readBlob(content, desc, MAX_MANIFEST_BYTES, what));
    const config = parseImageConfig(
      `${what}: config ${manifest.config.digest}`,
      await readBlob(content, manifest.config, MAX_CONFIG_BYTES, what),
    );
    // An index entry that names no platform is taken for the one its config names (containerd's
    // images.Manifest); a lone manifest is taken as it is.
    if (unnamedPlatform && !matcher.match({ os: config.os, architecture: config.architecture })) {
      throw notFound(
        `${what}: no manifest for platform ${formatPlatform(matcher.wanted)}: ${desc.digest} names none in its index and is for ${config.os || '?'}/${config.architecture || '?'} by its config`,
      );
    }
    const layers = imageLayers(manifest);
    if (config.diffIds.length !== layers.length) {
      throw invalidArgument(`${what}: config ${manifest.config.digest} lists ${config.diffIds.length} diff_ids for ${layers.length} layers`);
    }
    return { target, manifestDesc: desc, manifest, configDesc: manifest.config, config, layers };
  }
  throw invalidArgument(`${what}: indexes nested more than ${MAX_INDEX_DEPTH} deep`);
}

/** CRI image size: config plus layers of the platform manifest. */
/**
 * What containerd's CRI reports as an image's size (images.Size): every blob walked for the
 * platform — the index when the target is one, the manifest, the config and the layers.
 */
export function imageSize(image: ResolvedImage): number {
  const index = image.target.digest === image.manifestDesc.digest ? 0 : image.target.size;
  // Every entry of the manifest, as containerd's walk counts it (a signature listed among the layers too).
  return image.manifest.layers.reduce((sum, l) => sum + l.size, index + image.manifestDesc.size + image.configDesc.size);
}

/**
 * Every blob reachable from `targets` that is in the store: indexes, manifests (of every platform
 * pulled), configs, layers. Children of an index that were never fetched are skipped.
 */
export async function referencedBlobs(content: ContentStore, targets: Iterable<Descriptor>): Promise<Set<string>> {
  const seen = new Set<string>();
  const visit = async (desc: Descriptor): Promise<void> => {
    if (seen.has(desc.digest)) return;
    seen.add(desc.digest);
    if (!isIndexType(desc.mediaType) && !isManifestType(desc.mediaType)) return;
    let data: Buffer;
    try {
      data = await readDocument(content, desc, MAX_MANIFEST_BYTES, desc.digest);
    } catch (err) {
      // Absent, or too big to be any recorded image's document: it references nothing.
      if (isNotFound(err) || kindOf(err) === 'InvalidArgument') return;
      throw err;
    }
    try {
      if (isIndexType(desc.mediaType)) {
        for (const child of parseIndex(desc.digest, data).manifests) await visit(child);
      } else {
        const m = parseManifest(desc.digest, data);
        for (const child of [m.config, ...m.layers]) await visit(child);
      }
    } catch {
      // An unparsable document keeps itself alive but references nothing.
    }
  };
  for (const t of targets) await visit(t);
  return seen;
}

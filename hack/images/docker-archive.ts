// Writes an image in the legacy `docker save` layout: manifest.json (Config, RepoTags, Layers),
// the config as <hex>.json, one directory per layer holding the uncompressed layer.tar (plus the
// VERSION and json files docker writes), and the `repositories` file.
import { createHash } from 'node:crypto';
import { canonicalJson, type JsonValue } from './canonical-json';
import { writeFileAtomic } from './atomic-file';
import { hexOf, type BuiltImage } from './image';
import { CREATED, repositoryOf, tagOf } from './names';
import { tarChunks, type TarEntry } from './tarball';

/** Docker's per-layer directory IDs chain each diff ID onto its parent's ID. */
function layerIds(image: BuiltImage): string[] {
  const ids: string[] = [];
  for (const layer of image.layers) {
    const parent = ids.length > 0 ? ids[ids.length - 1] : '';
    ids.push(createHash('sha256').update(`${parent}\n${layer.diffId}`).digest('hex'));
  }
  return ids;
}

export function dockerArchiveEntries(image: BuiltImage, repoTag: string): TarEntry[] {
  const ids = layerIds(image);
  const configFile = `${hexOf(image.configDescriptor.digest)}.json`;
  const entries: TarEntry[] = [{ kind: 'file', path: configFile, mode: 0o644, data: image.config }];
  image.layers.forEach((layer, i) => {
    const id = ids[i];
    const legacy: { [key: string]: JsonValue } = { id, created: CREATED, os: 'linux' };
    if (i > 0) legacy.parent = ids[i - 1];
    entries.push(
      { kind: 'file', path: `${id}/layer.tar`, mode: 0o644, data: layer.tar },
      { kind: 'file', path: `${id}/VERSION`, mode: 0o644, data: Buffer.from('1.0') },
      { kind: 'file', path: `${id}/json`, mode: 0o644, data: Buffer.from(canonicalJson(legacy)) },
    );
  });
  const manifest = [{ Config: configFile, RepoTags: [repoTag], Layers: ids.map((id) => `${id}/layer.tar`) }];
  const repositories = { [repositoryOf(repoTag)]: { [tagOf(repoTag)]: ids[ids.length - 1] } };
  entries.push(
    { kind: 'file', path: 'manifest.json', mode: 0o644, data: Buffer.from(canonicalJson(manifest)) },
    { kind: 'file', path: 'repositories', mode: 0o644, data: Buffer.from(canonicalJson(repositories)) },
  );
  return entries;
}

export async function writeDockerArchive(path: string, image: BuiltImage, repoTag: string): Promise<void> {
  await writeFileAtomic(path, tarChunks(dockerArchiveEntries(image, repoTag)));
}

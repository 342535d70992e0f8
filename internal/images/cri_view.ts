// The CRI's view of images, derived as containerd's CRI image store does: one image per config
// digest (the ID), gathering every name that points at it. repo_tags are the tagged names,
// repo_digests the digest names ("<repository>@<manifest digest>", recorded by a pull).
import { isDigest } from '../content/digest';
import type { ImageConfig } from './oci';
import { formatReference, parseNormalizedNamed, repositoryOf } from './reference';
import type { ImageRecord } from './store';

export interface CriImage {
  /** The config digest. */
  id: string;
  repoTags: string[];
  repoDigests: string[];
  /** Config plus layers of the platform manifest, in bytes. */
  size: number;
  config: ImageConfig;
  /** Numeric user from config.User ("1000" or "1000:1000"), when it is numeric. */
  uid?: number;
  /** Non-numeric user name from config.User. */
  username: string;
  /** The records behind this image (names, targets). */
  records: ImageRecord[];
}

/** Groups records by image ID, in a stable order. */
export function groupById(records: readonly ImageRecord[]): Map<string, ImageRecord[]> {
  const byId = new Map<string, ImageRecord[]>();
  for (const r of records) {
    const list = byId.get(r.configDigest) ?? [];
    list.push(r);
    byId.set(r.configDigest, list);
  }
  return byId;
}

export function repoTagsAndDigests(records: readonly ImageRecord[]): { repoTags: string[]; repoDigests: string[] } {
  const tags = new Set<string>();
  const digests = new Set<string>();
  for (const r of records) {
    if (isDigest(r.name)) continue; // the ID recorded as a name, as containerd's CRI does: neither tag nor digest ref
    let ref;
    try {
      ref = parseNormalizedNamed(r.name);
    } catch {
      continue; // a name that is only the ID, or otherwise not a reference
    }
    // As containerd's parseImageReferences: a tagged name is a repo tag, a digest name a repo
    // digest; a tag alone vouches for no digest reference (an import records none).
    if (ref.digest !== undefined) digests.add(`${repositoryOf(ref)}@${ref.digest}`);
    else if (ref.tag !== undefined) tags.add(formatReference(ref));
  }
  return { repoTags: [...tags].sort(), repoDigests: [...digests].sort() };
}

/** CRI splits config.User into uid (numeric user part) or username. */
export function splitUser(user: string): { uid?: number; username: string } {
  const userPart = user.split(':')[0];
  if (userPart === '') return { username: '' };
  if (/^\d+$/.test(userPart)) return { uid: Number(userPart), username: '' };
  return { username: userPart };
}

export function toCriImage(id: string, records: ImageRecord[], config: ImageConfig, size: number): CriImage {
  return { id, ...repoTagsAndDigests(records), size, config, ...splitUser(config.user), records };
}

// Deterministic tar writing: the same entries always give the same bytes. Entries are written in
// sorted path order (parents before children), hard links after every regular file so their
// targets already exist when an extractor reaches them, with one fixed mtime and no PAX records.
import { pack, type Header } from 'tar-stream';
import { invalidArgument } from '../../internal/errdefs/errors';
import { CREATED_DATE } from './names';

interface Owned {
  /** Relative path inside the tar, no leading "/" and no trailing "/". */
  path: string;
  uid?: number;
  gid?: number;
}

export type TarEntry =
  | (Owned & { kind: 'dir'; mode: number })
  | (Owned & { kind: 'file'; mode: number; data: Buffer })
  | (Owned & { kind: 'symlink'; target: string })
  | (Owned & { kind: 'hardlink'; target: string; mode: number });

const byPath = (a: TarEntry, b: TarEntry): number => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);

/**
 * The entries in writing order, with any missing parent directory added (0755, root-owned).
 * Throws InvalidArgument on a duplicate or malformed path, or a hard link to a file not in the set.
 */
export function orderEntries(entries: readonly TarEntry[]): TarEntry[] {
  const seen = new Map<string, TarEntry>();
  for (const entry of entries) {
    if (entry.path === '' || entry.path.startsWith('/') || entry.path.endsWith('/') || entry.path.split('/').includes('..')) {
      throw invalidArgument(`tar entry path ${JSON.stringify(entry.path)} must be relative, clean, without trailing "/"`);
    }
    if (seen.has(entry.path)) throw invalidArgument(`tar entry ${entry.path} appears twice`);
    seen.set(entry.path, entry);
  }
  for (const entry of entries) {
    const parts = entry.path.split('/');
    for (let i = 1; i < parts.length; i++) {
      const parent = parts.slice(0, i).join('/');
      const existing = seen.get(parent);
      if (existing === undefined) seen.set(parent, { kind: 'dir', path: parent, mode: 0o755 });
      else if (existing.kind !== 'dir') throw invalidArgument(`tar entry ${entry.path} is under ${parent}, which is not a directory`);
    }
  }
  const all = [...seen.values()];
  for (const entry of all) {
    if (entry.kind === 'hardlink' && seen.get(entry.target)?.kind !== 'file') {
      throw invalidArgument(`hard link ${entry.path} targets ${entry.target}, which is not a regular file in this tar`);
    }
  }
  const links = all.filter((e) => e.kind === 'hardlink').sort(byPath);
  const others = all.filter((e) => e.kind !== 'hardlink').sort(byPath);
  return [...others, ...links];
}

function headerOf(entry: TarEntry): Partial<Header> & Pick<Header, 'name'> {
  const common = {
    name: entry.path,
    uid: entry.uid ?? 0,
    gid: entry.gid ?? 0,
    uname: '',
    gname: '',
    mtime: CREATED_DATE,
  };
  switch (entry.kind) {
    case 'dir':
      return { ...common, type: 'directory', mode: entry.mode };
    case 'file':
      return { ...common, type: 'file', mode: entry.mode, size: entry.data.length };
    case 'symlink':
      return { ...common, type: 'symlink', mode: 0o777, linkname: entry.target };
    case 'hardlink':
      return { ...common, type: 'link', mode: entry.mode, linkname: entry.target };
  }
}

/**
 * The tar of `entries`, chunk by chunk. Every entry's data is already in memory, so queuing all of
 * them up front costs no extra copy; the consumer pulls chunks at its own pace.
 */
export function tarChunks(entries: readonly TarEntry[]): AsyncIterable<Uint8Array> {
  const packer = pack();
  for (const entry of orderEntries(entries)) {
    if (entry.kind === 'file') packer.entry(headerOf(entry), entry.data);
    else packer.entry(headerOf(entry));
  }
  packer.finalize();
  // streamx streams are async-iterable at runtime; its typings just do not say so.
  return packer as unknown as AsyncIterable<Uint8Array>;
}

/** The whole tar of `entries` as one Buffer. */
export async function tarBuffer(entries: readonly TarEntry[]): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of tarChunks(entries)) chunks.push(chunk);
  return Buffer.concat(chunks);
}

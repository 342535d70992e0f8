// Path safety for layer entries: every name is cleaned to components under the root, and every
// parent is walked one component at a time so that neither `..`, an absolute name, nor a symlink
// (from this layer or already on disk) can lead a write outside the root.
import { lstatSync, mkdirSync, readlinkSync } from 'node:fs';
import { join, posix } from 'node:path';
import { invalidArgument } from '../errdefs/errors';
import { errnoCode } from '../sys/fs';

const MAX_SYMLINK_HOPS = 40; // as the kernel's MAXSYMLINKS

/**
 * An entry name as components relative to the root: "./a//b/" → ["a","b"], "a/../b" → ["b"].
 * Absolute names and names whose `..` climbs above the root are refused.
 */
export function cleanEntryName(name: string, what = 'layer entry'): string[] {
  if (name.startsWith('/')) throw invalidArgument(`${what} "${name}": absolute paths are not allowed`);
  if (name.includes('\0')) throw invalidArgument(`${what} "${name}": contains a NUL byte`);
  const parts: string[] = [];
  for (const part of name.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (parts.length === 0) throw invalidArgument(`${what} "${name}": escapes the root with ".."`);
      parts.pop();
      continue;
    }
    parts.push(part);
  }
  return parts;
}

export interface ResolveOptions {
  /** Create missing directories (mode 0755), reporting each to onImplied; otherwise a missing one
   *  makes the result undefined. */
  create: boolean;
  onImplied?: (rel: string) => void;
}

/**
 * The real, symlink-free path (components under root) of the directory `dirParts`. Symlinks met on
 * the way are followed only while they stay inside the root: an absolute target or one that climbs
 * out is refused, naming the entry. A path component that is a file is refused too.
 */
export function resolveDir(root: string, dirParts: readonly string[], entryName: string, opts: ResolveOptions): string[] | undefined {
  const queue = [...dirParts];
  const real: string[] = [];
  let hops = 0;
  while (queue.length > 0) {
    const part = queue.shift() as string;
    const abs = join(root, ...real, part);
    let kind: 'dir' | 'symlink' | 'other' | 'missing';
    try {
      const st = lstatSync(abs);
      kind = st.isDirectory() ? 'dir' : st.isSymbolicLink() ? 'symlink' : 'other';
    } catch (err) {
      if (errnoCode(err) !== 'ENOENT') throw err;
      kind = 'missing';
    }
    if (kind === 'dir') {
      real.push(part);
    } else if (kind === 'missing') {
      if (!opts.create) return undefined;
      mkdirSync(abs, 0o755);
      real.push(part);
      opts.onImplied?.(real.join('/'));
    } else if (kind === 'symlink') {
      if (++hops > MAX_SYMLINK_HOPS) throw invalidArgument(`layer entry "${entryName}": too many levels of symbolic links`);
      const target = readlinkSync(abs);
      const linkPath = [...real, part].join('/');
      if (target.startsWith('/')) {
        throw invalidArgument(`layer entry "${entryName}": walks through symlink "${linkPath}" -> "${target}" out of the root`);
      }
      const joined = posix.normalize(posix.join(real.join('/') || '.', target));
      if (joined === '..' || joined.startsWith('../')) {
        throw invalidArgument(`layer entry "${entryName}": walks through symlink "${linkPath}" -> "${target}" out of the root`);
      }
      // Restart from the root with the link's target in front of what is left to walk.
      real.length = 0;
      queue.unshift(...joined.split('/').filter((p) => p !== '' && p !== '.'));
    } else {
      throw invalidArgument(`layer entry "${entryName}": "${[...real, part].join('/')}" is not a directory`);
    }
  }
  return real;
}

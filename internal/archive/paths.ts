// Path safety for layer entries: every name is cleaned to components under the root, and every
// directory is reached from an open directory one component at a time (openat with O_NOFOLLOW),
// so that neither `..`, an absolute name, nor a symlink (from this layer or already on disk) can
// lead an operation outside the root. A symlink on the way is followed as containerd's
// fs.RootPath (and a chroot) resolves it, by restarting from the root with its target: an absolute
// target starts at the root and a ".." at the root stays there (`var/run -> /run` is the image's
// /run), so no target leads out.
import { closeSync } from 'node:fs';
import { invalidArgument } from '../errdefs/errors';
import { errnoCode } from '../sys/fs';
import { mkdirAt, openDirAt, openDirBeneath, readlinkAt } from './byte_names';
import type { DirCache, OpenDir } from './dir_cache';

const MAX_SYMLINK_HOPS = 40; // as the kernel's MAXSYMLINKS
/** Longest path the kernel takes (PATH_MAX, with its NUL); containerd, joining paths, fails past it. */
export const MAX_PATH_BYTES = 4095;
/** How far up from the wanted directory a cached ancestor is looked for before starting at the root. */
const ANCESTOR_LOOKUPS = 3;
/** What a strict (no symlink) open answers when the path is not a plain chain of directories. */
const NOT_PLAIN = new Set(['ENOENT', 'ENOTDIR', 'ELOOP', 'EXDEV']);

/**
 * An entry name as components relative to the root: "./a//b/" → ["a","b"], "a/../b" → ["b"].
 * Absolute names and names whose `..` climbs above the root are refused.
 */
export function cleanEntryName(name: string, what = 'layer entry'): string[] {
  if (name.startsWith('/')) throw invalidArgument(`${what} "${name}": absolute paths are not allowed`);
  if (name.includes('\0')) throw invalidArgument(`${what} "${name}": contains a NUL byte`);
  const parts: string[] = [];
  if (!appendComponents(parts, name)) throw invalidArgument(`${what} "${name}": escapes the root with ".."`);
  return parts;
}

/**
 * Appends `path`'s components to `parts` ("" and "." dropped, ".." removing the last one); false
 * when a ".." found `parts` empty (it is then dropped: at the root, ".." is the root).
 */
function appendComponents(parts: string[], path: string): boolean {
  let stayedInside = true;
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part !== '..') parts.push(part);
    else if (parts.length > 0) parts.pop();
    else stayedInside = false;
  }
  return stayedInside;
}

export interface ResolveOptions {
  /** Create missing directories (mode 0755), reporting each to onImplied; otherwise a missing one
   *  makes the result undefined. */
  create: boolean;
  onImplied?: (real: string[]) => void;
}

/** Where a walk starts: an open directory and what is left to walk from it. */
interface Start {
  dir: OpenDir;
  rest: string[];
}

/**
 * Directories of one layer root, opened by the names entries give them. Each result's fd belongs
 * to the cache (or is the root's): valid until the cache's next release().
 */
export class DirResolver {
  constructor(
    private readonly root: OpenDir,
    private readonly cache: DirCache,
  ) {}

  /**
   * The directory `dirParts` (as the entry names it). Symlinks met on the way are followed inside
   * the root (see followed()). A path component that is a file is refused, naming the entry.
   */
  resolve(dirParts: readonly string[], entryName: string, opts: ResolveOptions): OpenDir | undefined {
    if (dirParts.length === 0) return this.root;
    const key = dirParts.join('/');
    const hit = this.cache.get(key);
    if (hit !== undefined) return hit;
    const walked = this.walk(dirParts, entryName, opts);
    if (walked === undefined) return undefined;
    // A walk that ended on a directory the cache already holds (through a symlink) opened nothing.
    if (walked.owned) this.cache.put(key, walked.dir);
    return walked.dir;
  }

  private walk(parts: readonly string[], entryName: string, opts: ResolveOptions): { dir: OpenDir; owned: boolean } | undefined {
    let { dir, rest } = this.start(parts);
    let owned: number | undefined; // an fd this walk opened, not (yet) the cache's
    const real = [...dir.real];
    let hops = 0;
    try {
      // Most misses are plain directories: one openat2 for all of the rest.
      if (rest.length > 1) {
        const fd = this.tryOpenBeneath(dir.fd, rest);
        if (fd !== undefined) return { dir: { fd, real: [...real, ...rest] }, owned: true };
      }
      while (rest.length > 0) {
        const part = rest.shift() as string;
        let fd: number;
        try {
          fd = openDirAt(dir.fd, part);
          real.push(part);
        } catch (err) {
          const code = errnoCode(err);
          if (code === 'ENOENT') {
            if (!opts.create) {
              if (owned !== undefined) closeSync(owned);
              return undefined;
            }
            mkdirAt(dir.fd, part, 0o755);
            real.push(part);
            opts.onImplied?.([...real]);
            fd = openDirAt(dir.fd, part);
          } else if (code === 'ELOOP' || code === 'ENOTDIR') {
            const target = readlinkAt(dir.fd, part);
            const here = [...real, part].join('/');
            if (target === undefined) throw invalidArgument(`layer entry "${entryName}": "${here}" is not a directory`);
            if (++hops > MAX_SYMLINK_HOPS) throw invalidArgument(`layer entry "${entryName}": too many levels of symbolic links`);
            const next = [...followed(real, target), ...rest];
            if (next.join('/').length > MAX_PATH_BYTES) {
              throw invalidArgument(`layer entry "${entryName}": resolves to a path longer than ${MAX_PATH_BYTES} bytes`);
            }
            // Restart from the root (or a cached directory on the way) with the link's target in
            // front of what is left to walk.
            if (owned !== undefined) closeSync(owned);
            owned = undefined;
            ({ dir, rest } = this.start(next));
            real.length = 0;
            real.push(...dir.real);
            continue;
          } else {
            throw err;
          }
        }
        if (owned !== undefined) closeSync(owned);
        owned = fd;
        dir = { fd, real: [...real] };
      }
    } catch (err) {
      if (owned !== undefined) closeSync(owned);
      throw err;
    }
    return { dir, owned: owned !== undefined };
  }

  /** The deepest of the few nearest ancestors of `parts` the cache holds, or the root. */
  private start(parts: readonly string[]): Start {
    for (let n = parts.length; n > 0 && n >= parts.length - ANCESTOR_LOOKUPS; n--) {
      const dir = this.cache.get(parts.slice(0, n).join('/'));
      if (dir !== undefined) return { dir, rest: parts.slice(n) };
    }
    return { dir: this.root, rest: [...parts] };
  }

  private tryOpenBeneath(fd: number, rest: readonly string[]): number | undefined {
    try {
      return openDirBeneath(fd, rest.join('/'));
    } catch (err) {
      if (NOT_PLAIN.has(errnoCode(err) ?? '')) return undefined;
      throw err;
    }
  }
}

/**
 * Where a symlink in directory `real` with `target` leads, as components under the root: an
 * absolute target from the root, a relative one from `real`, and ".." never above the root.
 */
function followed(real: readonly string[], target: string): string[] {
  const parts = target.startsWith('/') ? [] : [...real];
  appendComponents(parts, target); // a ".." at the root stays there
  return parts;
}

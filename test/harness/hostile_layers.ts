// Hostile layers for layer-apply tests: layers that write below a directory and then replace that
// directory (or one above it) by a symlink, to a victim directory outside the layer root or to
// another directory inside it. Whatever apply remembered about the replaced paths (implied
// parents, deferred directory times) must not then be applied through the symlink. The victim
// lives under the test's own temp dir, never at a real system path.
import { chownSync, chmodSync, lstatSync, mkdirSync, readdirSync, readlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { lgetxattr, llistxattr, lsetxattr } from '../../internal/sys/fs';
import type { TarEntry } from '../integration/archive/tarball';

export const T_BASE = new Date('2019-03-04T05:06:07Z');
export const T_DIR = new Date('2021-05-06T07:08:09Z');
export const T_LINK = new Date('2022-02-03T04:05:06Z');
const T_VICTIM = new Date('2018-01-02T03:04:05Z');

/**
 * A victim tree at dir/victim: directories x, y and x/y and a file, each owned 4321:4321, mode
 * 0700, an old mtime and a user.victim xattr. Every hostile layer below aims its symlink here, so
 * whatever depth a stale path has, it lands on an existing victim directory.
 */
export function makeVictim(dir: string): string {
  const victim = join(dir, 'victim');
  for (const rel of ['', 'x', 'y', 'x/y']) mkdirSync(join(victim, rel), { recursive: true });
  writeFileSync(join(victim, 'x/secret'), 'precious');
  for (const rel of ['x/secret', 'x/y', 'y', 'x', '']) {
    const path = join(victim, rel);
    lsetxattr(path, 'user.victim', 'v');
    chownSync(path, 4321, 4321);
    chmodSync(path, 0o700);
    utimesSync(path, T_VICTIM, T_VICTIM);
  }
  return victim;
}

/**
 * Everything that a chown, chmod, utimes or setxattr would change, per path under `victim`:
 * ctime moves on any of them, even one that writes the value already there.
 */
export function victimState(victim: string): string[] {
  const lines: string[] = [];
  const visit = (rel: string): void => {
    const path = join(victim, rel);
    const st = lstatSync(path, { bigint: true });
    const xattrs = llistxattr(path)
      .sort()
      .map((name) => `${name}=${lgetxattr(path, name)?.toString('hex')}`);
    lines.push(`${rel || '.'} mode=${st.mode.toString(8)} owner=${st.uid}:${st.gid} mtime=${st.mtimeNs} ctime=${st.ctimeNs} ${xattrs.join(',')}`);
    if (st.isDirectory()) for (const child of readdirSync(path).sort()) visit(rel ? `${rel}/${child}` : child);
  };
  visit('');
  return lines;
}

/**
 * The tree under `root` as a process would see it, one sorted line per path, symlinks not
 * followed: type, mode, owner, user.* xattrs, a symlink's target, a file's content.
 */
export function describeTree(root: string): string[] {
  const lines: string[] = [];
  const visit = (rel: string): void => {
    const path = join(root, rel);
    const st = lstatSync(path);
    const name = rel === '' ? '/' : rel;
    const owner = `${st.uid}:${st.gid}`;
    const mode = (st.mode & 0o7777).toString(8);
    const xattrs = llistxattr(path)
      .filter((x) => x.startsWith('user.'))
      .sort()
      .map((x) => ` ${x}=${lgetxattr(path, x)?.toString()}`)
      .join('');
    if (st.isSymbolicLink()) lines.push(`${name} symlink ${owner} ->${readlinkSync(path)}`);
    else if (st.isDirectory()) lines.push(`${name} dir ${mode} ${owner}${xattrs}`);
    else if (st.isFile()) lines.push(`${name} file ${mode} ${owner}${xattrs} ${lstatSync(path).size}B`);
    else lines.push(`${name} other ${mode} ${owner}`);
    if (st.isDirectory()) for (const child of readdirSync(path).sort()) visit(rel ? `${rel}/${child}` : child);
  };
  visit('');
  return lines.sort();
}

/**
 * A parent layer for the swaps: a/x and b/x with owners, modes, times and an xattr that a layer
 * on top inherits for a/x when it only implies it.
 */
export function baseLayer(): TarEntry[] {
  return [
    { name: 'a/', type: 'directory', mtime: T_BASE },
    { name: 'a/x/', type: 'directory', mode: 0o751, uid: 11, gid: 12, mtime: T_BASE, pax: { 'SCHILY.xattr.user.base': 'b' } },
    { name: 'b/', type: 'directory', mtime: T_BASE },
    { name: 'b/x/', type: 'directory', mode: 0o700, uid: 21, gid: 22, mtime: T_BASE },
  ];
}

export interface ParentSwap {
  what: string;
  entries: TarEntry[];
  /** The symlink that replaced a parent. */
  link: string;
  /** Directories the layer implied and kept, applied alone ("" is the root). */
  implied: string[];
  /** The layer's tree applied alone on an empty directory (describeTree lines). */
  alone: string[];
  /** The tree of baseLayer() with this layer on top, as containerd unpacks it. */
  onBase: string[];
}

/** The swaps, each aiming at `victim` (an absolute path outside the layer root). */
export function parentSwaps(victim: string): ParentSwap[] {
  const toVictim: TarEntry = { name: 'a', type: 'symlink', linkname: victim, mtime: T_LINK };
  return [
    {
      what: 'a file written under a/x (a, a/x implied), then a replaced by a symlink',
      entries: [{ name: 'a/x/f', data: 'f' }, toVictim],
      link: 'a',
      implied: [''],
      alone: ['/ dir 755 0:0', `a symlink 0:0 ->${victim}`],
      onBase: ['/ dir 755 0:0', `a symlink 0:0 ->${victim}`, 'b dir 755 0:0', 'b/x dir 700 21:22'],
    },
    {
      what: 'directories a and a/x described (owner, mode, times, xattr), then a replaced by a symlink',
      entries: [
        { name: 'a/', type: 'directory', mode: 0o711, mtime: T_DIR },
        { name: 'a/x/', type: 'directory', mode: 0o755, uid: 5, gid: 6, mtime: T_DIR, pax: { 'SCHILY.xattr.user.layer': 'l' } },
        { name: 'a/x/f', data: 'f' },
        toVictim,
      ],
      link: 'a',
      implied: [''],
      alone: ['/ dir 755 0:0', `a symlink 0:0 ->${victim}`],
      onBase: ['/ dir 755 0:0', `a symlink 0:0 ->${victim}`, 'b dir 755 0:0', 'b/x dir 700 21:22'],
    },
    {
      what: 'a file written under a/x/y (all implied), then the middle a/x replaced by a symlink',
      entries: [{ name: 'a/x/y/f', data: 'f' }, { name: 'a/x/y/', type: 'directory', mtime: T_DIR }, { ...toVictim, name: 'a/x' }],
      link: 'a/x',
      implied: ['', 'a'],
      alone: ['/ dir 755 0:0', 'a dir 755 0:0', `a/x symlink 0:0 ->${victim}`],
      onBase: ['/ dir 755 0:0', 'a dir 755 0:0', `a/x symlink 0:0 ->${victim}`, 'b dir 755 0:0', 'b/x dir 700 21:22'],
    },
    {
      what: 'a file written under a/x, then a replaced by a symlink to b inside the root',
      entries: [
        { name: 'b/', type: 'directory', mtime: T_DIR },
        { name: 'b/x/', type: 'directory', mode: 0o700, uid: 21, gid: 22, mtime: T_DIR },
        { name: 'a/x/f', data: 'f' },
        { name: 'a', type: 'symlink', linkname: 'b', mtime: T_LINK },
      ],
      link: 'a',
      implied: [''],
      alone: ['/ dir 755 0:0', 'a symlink 0:0 ->b', 'b dir 755 0:0', 'b/x dir 700 21:22'],
      onBase: ['/ dir 755 0:0', 'a symlink 0:0 ->b', 'b dir 755 0:0', 'b/x dir 700 21:22'],
    },
  ];
}

// Resolving image paths inside a root (or a stack of overlay layers) without ever reaching the host
// through a symlink, and reading what they name only when it is a bounded regular file.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { kindOf } from '../../../internal/errdefs/errors';
import { readRegularFile } from '../../../internal/fs/read_regular';
import { MAX_SYMLINKS, resolveInLayers, resolveInRoot } from '../../../internal/fs/root_path';
import { lsetxattr, mkfifo, mknod, S_IFCHR } from '../../../internal/sys/fs';

let tmp: string;
beforeEach(() => {
  tmp = mkdtempSync(join(tmpdir(), 'berth-rootpath-'));
});
afterEach(() => rmSync(tmp, { recursive: true, force: true }));

/** Writes `files` (relative path -> content) under `dir`, creating parents. */
function tree(dir: string, files: Record<string, string> = {}): string {
  mkdirSync(dir, { recursive: true });
  for (const [rel, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    writeFileSync(join(dir, rel), content);
  }
  return dir;
}

function link(dir: string, rel: string, target: string): void {
  mkdirSync(dirname(join(dir, rel)), { recursive: true });
  symlinkSync(target, join(dir, rel));
}

/** A victim outside the root: what a hostile image would like berthd to read. */
function victim(): string {
  return tree(join(tmp, 'victim'), { 'etc/passwd': 'mallory:x:4242:4242::/:/bin/sh\n' });
}

const read = (entry: ReturnType<typeof resolveInRoot>) => (entry === undefined ? undefined : readRegularFile(entry, 'f', 1 << 20).toString());

function refusal(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    expect(kindOf(e)).toBe('InvalidArgument');
    return (e as Error).message;
  }
  throw new Error('expected an InvalidArgument');
}

describe('resolveInRoot', () => {
  it('finds plain files and reports absent ones', () => {
    const root = tree(join(tmp, 'root'), { 'etc/passwd': 'root:x:0:0::/:/bin/sh\n' });
    expect(read(resolveInRoot(root, '/etc/passwd'))).toBe('root:x:0:0::/:/bin/sh\n');
    expect(resolveInRoot(root, '/etc/group')).toBeUndefined();
    expect(resolveInRoot(root, '/etc/passwd/x')).toBeUndefined(); // ENOTDIR is "not there"
    expect(resolveInRoot(join(tmp, 'nope'), '/etc/passwd')).toBeUndefined();
  });

  it('resolves an absolute symlink against the root, never the host', () => {
    const host = victim();
    const root = tree(join(tmp, 'root'), { 'real/etc/passwd': 'inside\n' });
    link(root, 'etc', join(host, 'etc')); // exists on the host, not in the root
    expect(resolveInRoot(root, '/etc/passwd')).toBeUndefined();
    link(root, 'etc2', '/real/etc');
    expect(read(resolveInRoot(root, '/etc2/passwd'))).toBe('inside\n');
  });

  it('clamps ".." at the root, in the path and in symlink targets', () => {
    const host = victim();
    const root = tree(join(tmp, 'root'), { 'etc/passwd': 'inside\n' });
    const up = '../'.repeat(20);
    link(root, 'escape', `${up}${host.slice(1)}/etc`);
    expect(resolveInRoot(root, '/escape/passwd')).toBeUndefined();
    expect(read(resolveInRoot(root, `/${up}etc/passwd`))).toBe('inside\n');
    link(root, 'sub/dotdot', '../../../../etc');
    expect(read(resolveInRoot(root, '/sub/dotdot/passwd'))).toBe('inside\n');
  });

  it('follows a symlinked final component inside the root (NixOS-style /etc/passwd)', () => {
    const root = tree(join(tmp, 'root'), { 'nix/store/abc/passwd': 'nix\n' });
    link(root, 'etc/passwd', '../nix/store/abc/passwd');
    expect(read(resolveInRoot(root, '/etc/passwd'))).toBe('nix\n');
    link(root, 'etc/group', join(victim(), 'etc/passwd'));
    expect(resolveInRoot(root, '/etc/group')).toBeUndefined();
  });

  it('gives up on symlink loops with ELOOP, after MAX_SYMLINKS links', () => {
    const root = tree(join(tmp, 'root'), { target: 'end\n' });
    link(root, 'a', 'b');
    link(root, 'b', '/a');
    expect(refusal(() => resolveInRoot(root, '/a'))).toMatch(/too many levels of symbolic links/);
    link(root, 'self', 'self/x');
    expect(refusal(() => resolveInRoot(root, '/self'))).toMatch(/ELOOP/);
    // A chain of exactly MAX_SYMLINKS links resolves; one more does not.
    for (let i = 0; i < MAX_SYMLINKS; i++) link(root, `l${i}`, i === MAX_SYMLINKS - 1 ? 'target' : `l${i + 1}`);
    expect(read(resolveInRoot(root, '/l0'))).toBe('end\n');
    link(root, 'l-extra', 'l0');
    expect(refusal(() => resolveInRoot(root, '/l-extra'))).toMatch(/too many levels/);
  });
});

describe('readRegularFile', () => {
  it('refuses a FIFO without opening it (a reader would block)', () => {
    const root = tree(join(tmp, 'root'), {});
    mkdirSync(join(root, 'etc'));
    mkfifo(join(root, 'etc/passwd'), 0o644);
    const entry = resolveInRoot(root, '/etc/passwd');
    expect(entry).toBeDefined();
    expect(refusal(() => readRegularFile(entry!, "the image's /etc/passwd", 1 << 20))).toBe("the image's /etc/passwd is not a regular file");
  });

  it('refuses a directory and a device node', () => {
    const root = tree(join(tmp, 'root'), { 'etc/passwd/x': '' });
    mknod(join(root, 'etc/group'), S_IFCHR | 0o600, 1, 3); // /dev/null's numbers
    expect(refusal(() => readRegularFile(resolveInRoot(root, '/etc/passwd')!, 'passwd', 100))).toMatch(/passwd is not a regular file/);
    expect(refusal(() => readRegularFile(resolveInRoot(root, '/etc/group')!, 'group', 100))).toMatch(/group is not a regular file/);
  });

  it('refuses a file past the cap, and reads one exactly at it', () => {
    const root = tree(join(tmp, 'root'), { small: '0123456789' });
    writeFileSync(join(root, 'huge'), '');
    truncateSync(join(root, 'huge'), 64 << 20); // sparse: no disk used
    expect(readRegularFile(resolveInRoot(root, '/small')!, 'small', 10).toString()).toBe('0123456789');
    expect(refusal(() => readRegularFile(resolveInRoot(root, '/small')!, 'small', 9))).toBe('small is larger than 9 bytes');
    expect(refusal(() => readRegularFile(resolveInRoot(root, '/huge')!, 'huge', 16 << 20))).toMatch(/huge is larger than 16777216 bytes/);
  });
});

describe('resolveInLayers (overlay merged view, topmost first)', () => {
  it('lets the topmost layer win and merges directories across layers', () => {
    const lower = tree(join(tmp, 'lower'), { 'etc/passwd': 'lower\n', 'etc/group': 'lower group\n' });
    const upper = tree(join(tmp, 'upper'), { 'etc/passwd': 'upper\n' });
    expect(read(resolveInLayers([upper, lower], '/etc/passwd'))).toBe('upper\n');
    expect(read(resolveInLayers([upper, lower], '/etc/group'))).toBe('lower group\n');
  });

  it('follows a symlink in one layer to a file in another, inside the view', () => {
    const lower = tree(join(tmp, 'lower'), { 'usr/etc/passwd': 'moved\n' });
    const upper = tree(join(tmp, 'upper'), {});
    link(upper, 'etc', 'usr/etc');
    expect(read(resolveInLayers([upper, lower], '/etc/passwd'))).toBe('moved\n');
    link(upper, 'abs', '/usr/etc');
    expect(read(resolveInLayers([upper, lower], '/abs/passwd'))).toBe('moved\n');
  });

  it('never leaves the view through an absolute or ".." symlink to a host directory', () => {
    const host = victim();
    const lower = tree(join(tmp, 'lower'), { 'data/x': '' });
    const upper = tree(join(tmp, 'upper'), {});
    link(upper, 'etc', join(host, 'etc'));
    link(upper, 'up', `${'../'.repeat(20)}${host.slice(1)}/etc`);
    expect(resolveInLayers([upper, lower], '/etc/passwd')).toBeUndefined();
    expect(resolveInLayers([upper, lower], '/up/passwd')).toBeUndefined();
  });

  it('treats a whiteout as absent and an opaque directory as hiding what is below', () => {
    const lower = tree(join(tmp, 'lower'), { 'etc/passwd': 'lower\n', 'etc/group': 'lower group\n', 'opt/a': 'a\n' });
    const upper = tree(join(tmp, 'upper'), { 'opt/b': 'b\n' });
    mkdirSync(join(upper, 'etc'));
    mknod(join(upper, 'etc/passwd'), S_IFCHR, 0, 0);
    lsetxattr(join(upper, 'opt'), 'trusted.overlay.opaque', 'y');
    expect(resolveInLayers([upper, lower], '/etc/passwd')).toBeUndefined();
    expect(read(resolveInLayers([upper, lower], '/etc/group'))).toBe('lower group\n');
    expect(resolveInLayers([upper, lower], '/opt/a')).toBeUndefined();
    expect(read(resolveInLayers([upper, lower], '/opt/b'))).toBe('b\n');
  });

  it('stops merging at a non-directory below a directory', () => {
    const bottom = tree(join(tmp, 'bottom'), { 'etc/passwd': 'bottom\n' });
    const middle = tree(join(tmp, 'middle'), { etc: 'a file replacing /etc' });
    const top = tree(join(tmp, 'top'), { 'etc/group': 'top\n' });
    expect(resolveInLayers([top, middle, bottom], '/etc/passwd')).toBeUndefined();
    expect(read(resolveInLayers([top, middle, bottom], '/etc/group'))).toBe('top\n');
  });

  it('clamps ".." at the view root and pops merged directories', () => {
    const lower = tree(join(tmp, 'lower'), { 'etc/passwd': 'lower\n', 'a/b/c': '' });
    const upper = tree(join(tmp, 'upper'), {});
    link(upper, 'a/b/link', '../../../../../etc');
    expect(read(resolveInLayers([upper, lower], '/a/b/link/passwd'))).toBe('lower\n');
  });
});

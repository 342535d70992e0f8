// The addon's filesystem calls and the mount helpers, on the real kernel.
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { kindOf } from '../../../internal/errdefs/errors';
import { mountAll, unmountAll, withTempMount, type Mount } from '../../../internal/mount';
import * as sys from '../../../internal/sys/fs';
import { thrownBy } from '../../harness/thrown';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'berth-sys-'));
});
afterEach(() => {
  expect(mountsUnder(dir)).toEqual([]);
  rmSync(dir, { recursive: true, force: true });
});

function mountsUnder(path: string): string[] {
  return readFileSync('/proc/self/mounts', 'utf8').split('\n').filter((l) => l.includes(path));
}

describe('sys fs calls', () => {
  it('makes device nodes and FIFOs', () => {
    sys.mknod(join(dir, 'null'), sys.S_IFCHR | 0o666, 1, 3);
    sys.mknod(join(dir, 'loop'), sys.S_IFBLK | 0o600, 7, 1);
    sys.mkfifo(join(dir, 'fifo'), 0o640);
    const c = lstatSync(join(dir, 'null'));
    expect(c.isCharacterDevice()).toBe(true);
    expect(c.rdev).toBe((1 << 8) | 3);
    expect(lstatSync(join(dir, 'loop')).isBlockDevice()).toBe(true);
    expect(lstatSync(join(dir, 'fifo')).isFIFO()).toBe(true);
    const err = thrownBy(() => sys.mkfifo(join(dir, 'fifo'), 0o640));
    expect(sys.errnoCode(err)).toBe('EEXIST');
    expect(String(err)).toContain(join(dir, 'fifo'));
  });

  it('sets, reads, lists and removes xattrs without following symlinks', () => {
    const file = join(dir, 'f');
    writeFileSync(file, '');
    sys.lsetxattr(file, 'user.a', Buffer.from([0, 1, 255]));
    sys.lsetxattr(file, 'trusted.b', 'text');
    expect(sys.lgetxattr(file, 'user.a')).toEqual(Buffer.from([0, 1, 255]));
    expect(sys.llistxattr(file).sort()).toEqual(['trusted.b', 'user.a']);
    expect(sys.lgetxattr(file, 'user.none')).toBeUndefined();
    sys.lremovexattr(file, 'user.a');
    expect(sys.llistxattr(file)).toEqual(['trusted.b']);
    expect(sys.errnoCode(thrownBy(() => sys.lsetxattr(file, 'user.a', 'x', sys.XATTR_REPLACE)))).toBe('ENODATA');
    expect(sys.errnoCode(thrownBy(() => sys.llistxattr(join(dir, 'missing'))))).toBe('ENOENT');
    expect(() => sys.mknod(`${dir}/a\0b`, sys.S_IFCHR, 0, 0)).toThrow(/NUL/);
  });

  it('mounts and unmounts a tmpfs', () => {
    const target = join(dir, 'mnt');
    mkdirSync(target);
    sys.mount('tmpfs', target, 'tmpfs', sys.MS_NOSUID, 'size=1m');
    writeFileSync(join(target, 'x'), 'x');
    expect(mountsUnder(target)).toHaveLength(1);
    sys.umount2(target);
    expect(existsSync(join(target, 'x'))).toBe(false);
    expect(sys.errnoCode(thrownBy(() => sys.umount2(target)))).toBe('EINVAL');
  });
});

describe('mount helpers', () => {
  it('mountAll stacks mounts and unmountAll peels them all', () => {
    const target = join(dir, 'mnt');
    mkdirSync(target);
    mountAll([{ type: 'tmpfs', source: 'tmpfs', options: ['size=1m'] }, { type: 'tmpfs', source: 'tmpfs', options: ['size=2m', 'ro'] }], target);
    expect(mountsUnder(target)).toHaveLength(2);
    expect(() => writeFileSync(join(target, 'x'), 'x')).toThrow(/EROFS/);
    unmountAll(target);
    expect(mountsUnder(target)).toEqual([]);
  });

  it('mountAll undoes earlier mounts when a later one fails', () => {
    const target = join(dir, 'mnt');
    mkdirSync(target);
    const mounts: Mount[] = [
      { type: 'tmpfs', source: 'tmpfs', options: [] },
      { type: 'no-such-fs', source: 'x', options: [] },
    ];
    const err = thrownBy(() => mountAll(mounts, target));
    expect(String(err)).toContain('no-such-fs');
    expect(mountsUnder(target)).toEqual([]);
  });

  it('makes a read-only bind with the remount a bind needs', () => {
    const src = join(dir, 'src');
    mkdirSync(src);
    writeFileSync(join(src, 'f'), 'f');
    const target = join(dir, 'mnt');
    mkdirSync(target);
    mountAll([{ type: 'bind', source: src, options: ['rbind', 'ro'] }], target);
    try {
      expect(readFileSync(join(target, 'f'), 'utf8')).toBe('f');
      expect(() => writeFileSync(join(target, 'g'), 'g')).toThrow(/EROFS/);
    } finally {
      unmountAll(target);
    }
  });

  it('refuses mount data longer than a page', () => {
    const target = join(dir, 'mnt');
    mkdirSync(target);
    const err = thrownBy(() => mountAll([{ type: 'overlay', source: 'overlay', options: [`lowerdir=${'x'.repeat(5000)}`] }], target));
    expect(kindOf(err)).toBe('InvalidArgument');
  });

  it('withTempMount unmounts and removes its mount point even when fn throws', async () => {
    const src = join(dir, 'src');
    mkdirSync(src);
    let seen = '';
    const err = await withTempMount(
      [{ type: 'bind', source: src, options: ['rbind'] }],
      async (root) => {
        seen = root;
        writeFileSync(join(root, 'written'), 'w');
        throw new Error('boom');
      },
      { parent: dir },
    ).catch((e: unknown) => e);
    expect(String(err)).toContain('boom');
    expect(existsSync(seen)).toBe(false);
    expect(readdirSync(dir).sort()).toEqual(['src']);
    expect(readFileSync(join(src, 'written'), 'utf8')).toBe('w');
  });
});

// The fd-relative calls layer apply is built on (internal/sys/fsat.ts): none of them follows a
// symlink at the name it is given, and openDirBeneath follows none anywhere on its path.
import { closeSync, constants, lstatSync, mkdirSync, mkdtempSync, openSync, readFileSync, readdirSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lgetxattr } from '../../../internal/sys/fs';
import {
  createFileAt,
  fchmodAt,
  fchownAt,
  mkdirAt,
  openDirAt,
  openDirBeneath,
  readlinkAt,
  removeAt,
  setxattrAt,
  statAt,
  utimensAt,
} from '../../../internal/sys/fsat';

let scratch: string;
let root: string;
let rootFd: number;
let victim: string;
beforeEach(() => {
  scratch = mkdtempSync(join(tmpdir(), 'berth-fsat-'));
  root = join(scratch, 'root');
  victim = join(scratch, 'victim');
  mkdirSync(join(root, 'a/b'), { recursive: true });
  mkdirSync(victim);
  writeFileSync(join(victim, 'file'), 'precious');
  utimesSync(join(victim, 'file'), 1000, 1000);
  symlinkSync(victim, join(root, 'out'));
  symlinkSync(join(victim, 'file'), join(root, 'outfile'));
  symlinkSync('a', join(root, 'in'));
  rootFd = openSync(root, constants.O_RDONLY | constants.O_DIRECTORY);
});
afterEach(() => {
  closeSync(rootFd);
  rmSync(scratch, { recursive: true, force: true });
});

const codeOf = (run: () => unknown): string | undefined => {
  try {
    run();
    return undefined;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code ?? (err as Error).name;
  }
};

describe('fsat', () => {
  it('openDirBeneath opens a plain path and refuses any symlink on it, even one that stays inside', () => {
    const fd = openDirBeneath(rootFd, 'a/b');
    expect(statAt(fd, '')?.mode).toBe(lstatSync(join(root, 'a/b')).mode);
    closeSync(fd);
    closeSync(openDirBeneath(rootFd, ''));
    expect(codeOf(() => openDirBeneath(rootFd, 'in/b'))).toBe('ELOOP');
    expect(codeOf(() => openDirBeneath(rootFd, 'out'))).toMatch(/ELOOP|ENOTDIR/);
    expect(codeOf(() => openDirBeneath(rootFd, '../victim'))).toBe('EXDEV');
    expect(codeOf(() => openDirBeneath(rootFd, 'a/missing'))).toBe('ENOENT');
  });

  it('openDirAt and createFileAt do not follow a symlink at the name', () => {
    expect(codeOf(() => openDirAt(rootFd, 'out'))).toMatch(/ELOOP|ENOTDIR/);
    expect(codeOf(() => createFileAt(rootFd, 'outfile', 0o600))).toBe('EEXIST');
    expect(readdirSync(victim)).toEqual(['file']);
  });

  it('owner, mode, times and xattrs of a symlink name change the link or fail, never its target', () => {
    const before = lstatSync(join(victim, 'file'), { bigint: true });
    fchownAt(rootFd, 'outfile', 7, 8);
    expect([lstatSync(join(root, 'outfile')).uid, lstatSync(join(root, 'outfile')).gid]).toEqual([7, 8]);
    expect(codeOf(() => fchmodAt(rootFd, 'outfile', 0o777))).toMatch(/EOPNOTSUPP|ENOTSUP/);
    utimensAt(rootFd, 'outfile', { sec: 2000, nsec: 5 }, { sec: 3000, nsec: 7 });
    expect(lstatSync(join(root, 'outfile'), { bigint: true }).mtimeNs).toBe(3_000_000_000_007n);
    setxattrAt(rootFd, 'outfile', 'trusted.berth', 'on the link');
    expect(lgetxattr(join(root, 'outfile'), 'trusted.berth')?.toString()).toBe('on the link');
    expect(lgetxattr(join(victim, 'file'), 'trusted.berth')).toBeUndefined();
    const after = lstatSync(join(victim, 'file'), { bigint: true });
    expect([after.uid, after.gid, after.mode, after.mtimeNs, after.ctimeNs]).toEqual([before.uid, before.gid, before.mode, before.mtimeNs, before.ctimeNs]);
  });

  it('"" names the fd itself', () => {
    const fd = openDirAt(rootFd, 'a');
    fchownAt(fd, '', 3, 4);
    fchmodAt(fd, '', 0o710);
    setxattrAt(fd, '', 'user.k', 'v');
    utimensAt(fd, '', { sec: 10, nsec: 0 }, { sec: 20, nsec: 500 });
    closeSync(fd);
    const st = statAt(rootFd, 'a');
    expect(st).toEqual({ mode: 0o40710, uid: 3, gid: 4, atime: { sec: 10, nsec: 0 }, mtime: { sec: 20, nsec: 500 } });
    expect(lgetxattr(join(root, 'a'), 'user.k')?.toString()).toBe('v');
  });

  it('refuses a name that is more than one component', () => {
    for (const name of ['a/b', '..', '.']) expect(codeOf(() => mkdirAt(rootFd, name, 0o755))).toBe('TypeError');
    expect(codeOf(() => mkdirAt(rootFd, '', 0o755))).toBe('TypeError');
  });

  it('readlinkAt and statAt answer undefined for what is not there (or not a symlink)', () => {
    expect(readlinkAt(rootFd, 'in')).toBe('a');
    expect(readlinkAt(rootFd, 'a')).toBeUndefined();
    expect(statAt(rootFd, 'missing')).toBeUndefined();
  });

  it('removeAt removes a symlink, not its target, and says what it removed', () => {
    expect(removeAt(rootFd, 'out')).toBe('symlink');
    expect(removeAt(rootFd, 'out')).toBe('missing');
    expect(removeAt(rootFd, 'a')).toBe('directory');
    expect(readdirSync(root).sort()).toEqual(['in', 'outfile']);
    expect(readFileSync(join(victim, 'file'), 'utf8')).toBe('precious');
  });

  it('removeAt removes a tree deeper than PATH_MAX, with links out of it left pointing', () => {
    // 500 levels of "deep-level": 5.5 kB of path, past what path-based calls can even name.
    let fd = openDirAt(rootFd, 'a');
    mkdirAt(fd, 'deep', 0o755);
    const top = openDirAt(fd, 'deep');
    closeSync(fd);
    fd = top;
    for (let i = 0; i < 500; i++) {
      mkdirAt(fd, 'deep-level', 0o755);
      closeSync(createFileAt(fd, 'f', 0o600));
      const next = openDirAt(fd, 'deep-level');
      closeSync(fd);
      fd = next;
    }
    symlinkSync(victim, `/proc/self/fd/${fd}/escape`);
    closeSync(fd);
    const a = openDirAt(rootFd, 'a');
    expect(removeAt(a, 'deep')).toBe('directory');
    expect(readdirSync(join(root, 'a'))).toEqual(['b']);
    closeSync(a);
    expect(readdirSync(victim)).toEqual(['file']);
  });
});

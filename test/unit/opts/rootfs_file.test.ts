// The image's /etc/passwd and /etc/group as user lookup reads them from a container's snapshot
// mounts: through the overlay layers' merged view, never through a symlink to the host.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { userLookupFromImage } from '../../../internal/cri/opts/user';
import { readRootfsFile } from '../../../internal/cri/rootfs_file';
import { kindOf } from '../../../internal/errdefs/errors';
import type { Mount } from '../../../internal/mount/types';
import { mkfifo } from '../../../internal/sys/fs';

let tmp: string;
let upper: string;
let lower1: string;
let lower2: string;
let overlay: Mount[];
beforeEach(() => {
  tmp = mkdtempSync(join(tmpdir(), 'berth-rootfsfile-'));
  [upper, lower1, lower2] = ['upper', 'l1', 'l2'].map((d) => join(tmp, d)) as [string, string, string];
  for (const d of [upper, lower1, lower2]) mkdirSync(d);
  // lower1 is the top image layer, lower2 the base.
  overlay = [{ type: 'overlay', source: 'overlay', options: [`upperdir=${upper}`, `workdir=${join(tmp, 'work')}`, `lowerdir=${lower1}:${lower2}`] }];
});
afterEach(() => rmSync(tmp, { recursive: true, force: true }));

function put(path: string, content: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
}

function link(path: string, target: string): void {
  mkdirSync(dirname(path), { recursive: true });
  symlinkSync(target, path);
}

/** Host files a hostile image points /etc at; "mallory" exists only here. */
function hostVictim(): string {
  const dir = join(tmp, 'victim', 'etc');
  put(join(dir, 'passwd'), 'mallory:x:4242:4242::/:/bin/sh\n');
  put(join(dir, 'group'), 'evil:x:4343:mallory\n');
  return dir;
}

const lookup = (mounts: Mount[]) => userLookupFromImage((p) => readRootfsFile(mounts, p));

function failure(fn: () => unknown): Error {
  try {
    fn();
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected a failure');
}

describe('readRootfsFile', () => {
  it('reads through the layers, topmost first', () => {
    put(join(lower2, 'etc/passwd'), 'base\n');
    put(join(lower1, 'etc/group'), 'top\n');
    expect(readRootfsFile(overlay, '/etc/passwd')).toBe('base\n');
    expect(readRootfsFile(overlay, '/etc/group')).toBe('top\n');
    expect(readRootfsFile(overlay, '/etc/shadow')).toBeUndefined();
  });

  it('does not resolve users from a host file behind an absolute /etc symlink', () => {
    link(join(lower1, 'etc'), hostVictim());
    put(join(lower2, 'bin/sh'), '');
    const users = lookup(overlay);
    const err = failure(() => users.resolve('mallory'));
    expect(kindOf(err)).toBe('InvalidArgument');
    expect(err.message).toMatch(/user "mallory" not found/);
    expect(users.memberGids('mallory')).toEqual([]);
    expect(readRootfsFile(overlay, '/etc/passwd')).toBeUndefined();
  });

  it('does not follow a ".." symlink out of the layers either', () => {
    const victim = hostVictim();
    link(join(lower1, 'etc'), `${'../'.repeat(30)}${victim.slice(1)}`);
    expect(failure(() => lookup(overlay).resolve('mallory')).message).toMatch(/user "mallory" not found/);
  });

  it('follows symlinks that stay in the image, across layers', () => {
    put(join(lower2, 'usr/share/base/passwd'), 'carol:x:3000:3001::/:/bin/sh\n');
    link(join(lower1, 'etc'), '/usr/share/base');
    expect(lookup(overlay).resolve('carol')).toEqual({ uid: 3000, gid: 3001 });
  });

  it('reads a bind-mounted rootfs the same way', () => {
    const root = join(tmp, 'rootfs');
    link(join(root, 'etc'), hostVictim());
    const bind: Mount[] = [{ type: 'bind', source: root, options: ['rbind', 'ro'] }];
    expect(readRootfsFile(bind, '/etc/passwd')).toBeUndefined();
  });

  it('fails on a FIFO /etc/passwd instead of blocking', () => {
    mkdirSync(join(lower1, 'etc'));
    mkfifo(join(lower1, 'etc/passwd'), 0o644);
    const err = failure(() => lookup(overlay).resolve('alice'));
    expect(kindOf(err)).toBe('InvalidArgument');
    expect(err.message).toBe("the image's /etc/passwd is not a regular file");
  });

  it('fails on a huge /etc/group instead of reading it', () => {
    put(join(lower2, 'etc/group'), '');
    truncateSync(join(lower2, 'etc/group'), 1 << 30); // sparse
    expect(failure(() => readRootfsFile(overlay, '/etc/group')).message).toMatch(/\/etc\/group is larger than 10485760 bytes/);
  });
});

// An overlay of more lower dirs than one page of mount data names (an image of ~95 layers or more
// under berth's root): mounted with the lower dirs relative to their common parent, from a thread
// whose working directory is that parent, as containerd's compactLowerdirOption and mountAt do.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compactLowerdir, mountOne, unmountAll } from '../../../internal/mount/mount';

describe('an overlay of many lower dirs', () => {
  let root: string;
  beforeEach(() => (root = mkdtempSync(join(tmpdir(), 'berth-long-lowerdir-'))));
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('makes the lower dirs relative to their common parent', () => {
    expect(compactLowerdir('lowerdir=/a/b/snapshots/10/fs:/a/b/snapshots/9/fs,upperdir=/a/b/snapshots/11/fs,workdir=/w')).toEqual({
      dir: '/a/b/snapshots',
      data: 'lowerdir=10/fs:9/fs,upperdir=/a/b/snapshots/11/fs,workdir=/w',
    });
    expect(compactLowerdir('lowerdir=/x/1:/y/2')).toBeUndefined(); // only / in common
    expect(compactLowerdir('lowerdir=/x/1')).toBeUndefined();
    expect(compactLowerdir('upperdir=/u')).toBeUndefined();
  });

  it('is mounted, every layer visible, where the absolute list is over a page', () => {
    // A long parent, as a root under /var/lib/berth/overlayfs/snapshots with 3-digit IDs is.
    const snapshots = join(root, 'a-long-directory-name-standing-in-for-the-root', 'overlayfs', 'snapshots');
    const count = 130;
    const lowers: string[] = [];
    for (let i = count; i >= 1; i--) {
      const fs = join(snapshots, String(i), 'fs');
      mkdirSync(fs, { recursive: true });
      writeFileSync(join(fs, `layer-${i}`), String(i));
      lowers.push(fs);
    }
    expect(`lowerdir=${lowers.join(':')}`.length).toBeGreaterThan(4095);
    const target = join(root, 'mnt');
    mkdirSync(target);
    const cwd = process.cwd();
    mountOne({ type: 'overlay', source: 'overlay', options: [`lowerdir=${lowers.join(':')}`] }, target);
    try {
      expect(readdirSync(target).length).toBe(count);
      expect(existsSync(join(target, 'layer-1'))).toBe(true);
      expect(existsSync(join(target, `layer-${count}`))).toBe(true);
      expect(process.cwd()).toBe(cwd); // berthd's own working directory never moved
    } finally {
      unmountAll(target);
    }
    expect(readdirSync(target)).toEqual([]);
  });
});

// diskUsage, the walk behind every snapshot usage figure (writable layers, ImageFsInfo, berthctl du):
// blocks and inodes of a tree, hard links once, a tree larger than one synchronous slice of the walk,
// and the event loop still turning while a large tree is walked, without a turn per entry.
import { linkSync, lstatSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { diskUsage } from '../../../internal/snapshots/overlay/usage';

describe('diskUsage', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'berth-du-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  test('counts every inode once (hard links too) and sums allocated blocks', async () => {
    mkdirSync(join(dir, 'a/b'), { recursive: true });
    writeFileSync(join(dir, 'a/b/data'), Buffer.alloc(64 * 1024, 1));
    linkSync(join(dir, 'a/b/data'), join(dir, 'a/again'));
    symlinkSync('b/data', join(dir, 'a/link'));
    const paths = ['', 'a', 'a/b', 'a/b/data', 'a/link'].map((p) => join(dir, p));
    const blocks = paths.reduce((sum, p) => sum + lstatSync(p).blocks * 512, 0);
    expect(await diskUsage(dir)).toEqual({ size: blocks, inodes: 5 });
  });

  test('a tree of 3000 entries is counted whole, and other work runs while it is walked', async () => {
    for (let d = 0; d < 30; d++) {
      mkdirSync(join(dir, `d${d}`));
      for (let f = 0; f < 99; f++) writeFileSync(join(dir, `d${d}`, `f${f}`), '');
    }
    // Event-loop turns while it walks: some (it yields), but far fewer than entries. A turn per
    // entry is a thread-pool round trip per entry, which cost berthd five times the calls themselves.
    let turns = 0;
    let walking = true;
    const turn = (): void => {
      turns++;
      if (walking) setImmediate(turn);
    };
    setImmediate(turn);
    const usage = await diskUsage(dir);
    walking = false;
    expect(usage.inodes).toBe(1 + 30 + 30 * 99);
    expect(turns).toBeGreaterThan(0);
    expect(turns).toBeLessThan(usage.inodes / 20);
  });

  test('a missing root is an ENOENT error', async () => {
    await expect(diskUsage(join(dir, 'gone'))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

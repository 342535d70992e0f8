// diskUsage, the walk behind every snapshot usage figure (writable layers, ImageFsInfo, berthctl du):
// blocks and inodes of a tree, hard links once, symlinks never followed, a tree deeper than a path
// can name (walked whole), and the event loop free while a large tree is walked (the addon walks on the pool).
import { execFileSync } from 'node:child_process';
import { linkSync, lstatSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { diskUsage } from '../../../internal/snapshots/overlay/usage';
import { treeUsage } from '../../../internal/sys/du';

describe('diskUsage', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'berth-du-'));
  });
  // rm(1) removes trees deeper than PATH_MAX; Node's rmSync walks them by path and cannot.
  afterEach(() => execFileSync('rm', ['-rf', dir]));

  test('counts every inode once (hard links too) and sums allocated blocks', async () => {
    mkdirSync(join(dir, 'a/b'), { recursive: true });
    writeFileSync(join(dir, 'a/b/data'), Buffer.alloc(64 * 1024, 1));
    linkSync(join(dir, 'a/b/data'), join(dir, 'a/again'));
    symlinkSync('b/data', join(dir, 'a/link'));
    const paths = ['', 'a', 'a/b', 'a/b/data', 'a/link'].map((p) => join(dir, p));
    const blocks = paths.reduce((sum, p) => sum + lstatSync(p).blocks * 512, 0);
    expect(await diskUsage(dir)).toEqual({ size: blocks, inodes: 5 });
  });

  test('a symlink to a directory outside the tree is counted as the link, never entered', async () => {
    const tree = join(dir, 'tree');
    const outside = join(dir, 'outside');
    mkdirSync(tree);
    mkdirSync(outside);
    writeFileSync(join(outside, 'big'), Buffer.alloc(1 << 20, 1));
    symlinkSync(outside, join(tree, 'escape'));
    const blocks = [tree, join(tree, 'escape')].reduce((sum, p) => sum + lstatSync(p).blocks * 512, 0);
    expect(await treeUsage(tree)).toEqual({ size: blocks, inodes: 2, deeper: false });
  });

  test('a tree of 3000 entries is counted whole while the event loop keeps turning', async () => {
    for (let d = 0; d < 30; d++) {
      mkdirSync(join(dir, `d${d}`));
      for (let f = 0; f < 99; f++) writeFileSync(join(dir, `d${d}`, `f${f}`), '');
    }
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
  });

  test('a tree deeper than a path can name is counted whole, side branches and files at every level', async () => {
    // 600 levels of 20-character names: 12,600 bytes of path, past PATH_MAX (4,096) and past the
    // 256 levels walked with a descriptor per level; at each level a file and an empty side dir,
    // and 1 MiB at the bottom (what a container hiding data from eviction would put there).
    const name = 'd'.repeat(20);
    // Made by a child that descends with relative chdir(2) calls, as no full path reaches the bottom.
    const make = `process.chdir(process.argv[1]); for (let i = 0; i < 600; i++) { fs.writeFileSync('f', 'x'); fs.mkdirSync('side'); fs.mkdirSync('${name}'); process.chdir('${name}'); } fs.writeFileSync('leaf', Buffer.alloc(1 << 20, 1));`;
    execFileSync(process.execPath, ['-e', make, dir]);
    const usage = await treeUsage(dir);
    expect(usage.deeper).toBe(false);
    // The root; per level its file, side dir and next dir; the leaf.
    expect(usage.inodes).toBe(1 + 600 * 3 + 1);
    expect(usage.size).toBe(Number(execFileSync('du', ['-s', '-B1', dir], { encoding: 'utf8' }).split('\t')[0]));
  });

  test('a missing root is an ENOENT error naming the call', async () => {
    await expect(diskUsage(join(dir, 'gone'))).rejects.toMatchObject({ code: 'ENOENT', syscall: 'lstat' });
  });

  test('a path that is not a string, or holds a NUL, is refused', async () => {
    await expect(treeUsage(42 as unknown as string)).rejects.toThrow('diskUsage: path must be a string');
    await expect(treeUsage(`${dir}\0x`)).rejects.toThrow('without NUL');
  });

  test('a failed walk does not stop the ones queued behind it, and each answers its own tree', async () => {
    mkdirSync(join(dir, 'one/a'), { recursive: true });
    mkdirSync(join(dir, 'two/a/b'), { recursive: true });
    const [one, gone, two] = await Promise.allSettled([treeUsage(join(dir, 'one')), treeUsage(join(dir, 'gone')), treeUsage(join(dir, 'two'))]);
    expect([one, gone, two].map((r) => (r.status === 'fulfilled' ? r.value.inodes : (r.reason as { code?: string }).code))).toEqual([2, 'ENOENT', 3]);
  });
});

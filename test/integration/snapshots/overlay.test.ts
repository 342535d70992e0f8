// The snapshotter contract on the overlay snapshotter, with real overlay mounts (after the cases
// of containerd's snapshots testsuite).
import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmdirSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { kindOf } from '../../../internal/errdefs/errors';
import { createLogger } from '../../../internal/log/logger';
import { MetadataDB } from '../../../internal/metadata/db';
import { withTempMount } from '../../../internal/mount';
import { OverlaySnapshotter, type Info } from '../../../internal/snapshots';
import { markTopDir, mknod, S_IFCHR } from '../../../internal/sys/fs';

let root: string;
let db: MetadataDB;
let sn: OverlaySnapshotter;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'berth-snap-'));
  db = MetadataDB.open(join(root, 'meta.db'));
  sn = new OverlaySnapshotter({ root, db });
});
afterEach(() => {
  db.close();
  rmSync(root, { recursive: true, force: true });
});

const errorKind = (p: Promise<unknown>): Promise<string> => p.then(() => 'resolved', (e: unknown) => kindOf(e));

/** Prepares `key` on `parent`, lets fn write into it while mounted, and commits it as `name`. */
async function layer(name: string, parent: string, fn: (dir: string) => void): Promise<void> {
  const key = `${name}-active`;
  const mounts = await sn.prepare(key, parent);
  await withTempMount(mounts, async (dir) => fn(dir));
  await sn.commit(name, key);
}

function tree(dir: string): string[] {
  const out: string[] = [];
  const walk = (rel: string): void => {
    for (const name of readdirSync(join(dir, rel)).sort()) {
      const p = rel ? `${rel}/${name}` : name;
      const st = lstatSync(join(dir, p));
      if (st.isDirectory()) {
        out.push(`${p}/`);
        walk(p);
      } else {
        out.push(`${p}=${readFileSync(join(dir, p), 'utf8')}`);
      }
    }
  };
  walk('');
  return out;
}

describe('overlay snapshotter', () => {
  it('stacks committed layers and shows the merged tree through prepare and view', async () => {
    await layer('base', '', (d) => {
      writeFileSync(join(d, 'a'), 'base-a');
      writeFileSync(join(d, 'gone'), 'x');
      mkdirSync(join(d, 'dir'));
      writeFileSync(join(d, 'dir/old'), 'o');
    });
    await layer('second', 'base', (d) => {
      writeFileSync(join(d, 'a'), 'second-a');
      unlinkSync(join(d, 'gone'));
      rmSync(join(d, 'dir'), { recursive: true });
      mkdirSync(join(d, 'dir'));
      writeFileSync(join(d, 'dir/new'), 'n');
    });
    const expected = ['a=second-a', 'dir/', 'dir/new=n'];

    const active = await sn.prepare('container', 'second');
    expect(active).toHaveLength(1);
    expect(active[0]?.type).toBe('overlay');
    const opts = active[0]?.options ?? [];
    expect(opts).toContain(`lowerdir=${sn.upperDir('second')}:${sn.upperDir('base')}`);
    expect(opts).toContain(`upperdir=${sn.upperDir('container')}`);
    await withTempMount(active, async (d) => {
      expect(tree(d)).toEqual(expected);
      writeFileSync(join(d, 'mine'), 'm');
    });
    expect(readFileSync(join(sn.upperDir('container'), 'mine'), 'utf8')).toBe('m');

    const view = await sn.view('look', 'second');
    expect(view[0]?.options.some((o) => o.startsWith('upperdir='))).toBe(false);
    await withTempMount(view, async (d) => {
      expect(tree(d)).toEqual(expected);
      expect(() => writeFileSync(join(d, 'x'), 'x')).toThrow(/EROFS/);
    });
    expect(await sn.mounts('container')).toEqual(active);
  });

  it('binds a base snapshot and read-only binds a view of one committed parent', async () => {
    const base = await sn.prepare('b', '');
    expect(base).toEqual([{ type: 'bind', source: sn.upperDir('b'), options: ['rw', 'rbind'] }]);
    await withTempMount(base, async (d) => writeFileSync(join(d, 'f'), 'f'));
    await sn.commit('b1', 'b');
    const view = await sn.view('v', 'b1');
    expect(view).toEqual([{ type: 'bind', source: sn.upperDir('b1'), options: ['ro', 'rbind'] }]);
    await withTempMount(view, async (d) => {
      expect(readFileSync(join(d, 'f'), 'utf8')).toBe('f');
      expect(() => writeFileSync(join(d, 'g'), 'g')).toThrow(/EROFS/);
    });
    const empty = await sn.view('v0', '');
    expect(empty[0]?.options).toContain('ro');
  });

  it('reports kind, parent, labels and times through stat', async () => {
    await sn.prepare('p', '', { labels: { a: '1' } });
    const active = await sn.stat('p');
    expect(active).toMatchObject({ kind: 'active', name: 'p', labels: { a: '1' } });
    expect(active.parent).toBeUndefined();
    await sn.commit('c', 'p', { labels: { b: '2' } });
    const committed = await sn.stat('c');
    expect(committed).toMatchObject({ kind: 'committed', name: 'c', labels: { b: '2' } });
    expect(committed.updated.getTime()).toBeGreaterThanOrEqual(committed.created.getTime());
    expect(await errorKind(sn.stat('p'))).toBe('NotFound');
    await sn.view('v', 'c');
    expect(await sn.stat('v')).toMatchObject({ kind: 'view', name: 'v', parent: 'c' });
  });

  it('enforces kinds and names with the errdefs kinds', async () => {
    await sn.prepare('active', '');
    await sn.prepare('base-active', '');
    await sn.commit('base', 'base-active');
    await sn.view('view', 'base');
    expect(await errorKind(sn.prepare('active', ''))).toBe('AlreadyExists');
    expect(await errorKind(sn.view('base', ''))).toBe('AlreadyExists');
    expect(await errorKind(sn.prepare('x', 'missing'))).toBe('NotFound');
    expect(await errorKind(sn.prepare('x', 'active'))).toBe('InvalidArgument');
    expect(await errorKind(sn.prepare('x', 'view'))).toBe('InvalidArgument');
    expect(await errorKind(sn.prepare('', ''))).toBe('InvalidArgument');
    expect(await errorKind(sn.commit('c', 'view'))).toBe('FailedPrecondition');
    expect(await errorKind(sn.commit('c', 'base'))).toBe('FailedPrecondition');
    expect(await errorKind(sn.commit('c', 'missing'))).toBe('NotFound');
    expect(await errorKind(sn.commit('base', 'active'))).toBe('AlreadyExists');
    expect(await errorKind(sn.remove('base'))).toBe('FailedPrecondition');
    expect(await errorKind(sn.remove('missing'))).toBe('NotFound');
    expect(await errorKind(sn.mounts('base'))).toBe('FailedPrecondition');
    // Nothing above left a directory behind.
    expect(readdirSync(join(root, 'snapshots')).sort()).toEqual(['1', '2', '3']);
  });

  it('removes snapshots leaf first and leaves no directory', async () => {
    await layer('l1', '', (d) => writeFileSync(join(d, 'f'), '1'));
    await layer('l2', 'l1', (d) => writeFileSync(join(d, 'g'), '2'));
    await sn.prepare('c', 'l2');
    expect(await errorKind(sn.remove('l1'))).toBe('FailedPrecondition');
    await sn.remove('c');
    await sn.remove('l2');
    await sn.remove('l1');
    expect(readdirSync(join(root, 'snapshots'))).toEqual([]);
    const all: Info[] = [];
    await sn.walk((i) => void all.push(i));
    expect(all).toEqual([]);
  });

  it("moves a removed snapshot's files only once its row's removal is on disk", async () => {
    await sn.prepare('c', '');
    const dirOf = sn.upperDir('c').replace(/\/fs$/, '');
    writeFileSync(join(sn.upperDir('c'), 'f'), 'kept');
    db.close();
    // The WAL cannot be flushed (an I/O error): the row is gone, the files stay where they were.
    db = MetadataDB.open(join(root, 'meta.db'), undefined, async () => {
      throw Object.assign(new Error('EIO: i/o error, fsync'), { code: 'EIO' });
    });
    sn = new OverlaySnapshotter({ root, db });
    await expect(sn.remove('c')).rejects.toThrow('EIO');
    expect(await errorKind(sn.stat('c'))).toBe('NotFound');
    expect(readFileSync(join(dirOf, 'fs', 'f'), 'utf8')).toBe('kept');
    // An orphan the next start's sweep removes.
    await sn.cleanup();
    expect(existsSync(dirOf)).toBe(false);
  });

  it('cleanup unmounts and removes a snapshot a killed process left mounted in its temp mount dir', async () => {
    const mounts = await sn.prepare('applying', '');
    await withTempMount(mounts, async (dir) => writeFileSync(join(dir, 'f'), 'x'), { parent: sn.tempMountDir });
    expect(readdirSync(sn.tempMountDir)).toEqual([]); // a call that ends takes its mount away
    // What a process killed inside withTempMount leaves: a mount point there, here with two stacked.
    const left = join(sn.tempMountDir, 'berth-mount-killed');
    mkdirSync(left);
    for (let i = 0; i < 2; i++) execFileSync('mount', ['--bind', sn.upperDir('applying'), left]);
    // And what is not an empty mount point is left there, not a reason to fail the start.
    writeFileSync(join(sn.tempMountDir, 'stray-file'), 'x');
    await sn.cleanup();
    expect(readdirSync(sn.tempMountDir)).toEqual(['stray-file']);
    expect(readFileSync('/proc/self/mountinfo', 'utf8')).not.toContain(sn.tempMountDir);
    expect(readFileSync(join(sn.upperDir('applying'), 'f'), 'utf8')).toBe('x');
  });

  it('updates labels by field path', async () => {
    await sn.prepare('p', '', { labels: { a: '1', b: '2' } });
    expect((await sn.update({ name: 'p', labels: { b: '20', c: '3' } }, 'labels.b', 'labels.a')).labels).toEqual({ b: '20' });
    expect((await sn.update({ name: 'p', labels: { z: '9' } })).labels).toEqual({ z: '9' });
    expect((await sn.update({ name: 'p', labels: { y: '8' } }, 'labels')).labels).toEqual({ y: '8' });
    expect(await errorKind(sn.update({ name: 'p', labels: {} }, 'parent'))).toBe('InvalidArgument');
    expect(await errorKind(sn.update({ name: 'nope', labels: {} }))).toBe('NotFound');
  });

  it('walks with filters', async () => {
    await sn.prepare('a-active', '', { labels: { 'team.io/x': 'one' } });
    await sn.commit('a', 'a-active', { labels: { 'team.io/x': 'one' } });
    await sn.prepare('b', 'a', { labels: { other: 'two' } });
    await sn.view('v', 'a');
    const names = async (...filters: string[]): Promise<string[]> => {
      const out: string[] = [];
      await sn.walk((i) => void out.push(i.name), ...filters);
      return out.sort();
    };
    expect(await names()).toEqual(['a', 'b', 'v']);
    expect(await names('kind==committed')).toEqual(['a']);
    expect(await names('parent==a')).toEqual(['b', 'v']);
    expect(await names('parent==a,kind==view')).toEqual(['v']);
    expect(await names('kind==view', 'labels.other==two')).toEqual(['b', 'v']);
    expect(await names('labels."team.io/x"==one')).toEqual(['a']);
    expect(await names('labels.other')).toEqual(['b']);
    expect(await names('name~=^[ab]$')).toEqual(['a', 'b']);
    expect(await names('kind!=active')).toEqual(['a', 'v']);
    expect(await errorKind(sn.walk(() => undefined, 'colour==red'))).toBe('InvalidArgument');
  });

  it('measures usage of a snapshot\'s own directory', async () => {
    const mounts = await sn.prepare('p', '');
    const before = await sn.usage('p');
    await withTempMount(mounts, async (d) => {
      writeFileSync(join(d, 'big'), Buffer.alloc(1 << 20, 1));
      mkdirSync(join(d, 'sub'));
    });
    const after = await sn.usage('p');
    expect(after.inodes).toBe(before.inodes + 2);
    expect(after.size - before.size).toBeGreaterThanOrEqual(1 << 20);
  });

  it('commits a parentless extract onto a parent (commitOnto)', async () => {
    await layer('l1', '', (d) => {
      writeFileSync(join(d, 'keep'), 'k');
      writeFileSync(join(d, 'hide'), 'h');
    });
    const mounts = await sn.prepare('extract', '');
    await withTempMount(mounts, async (d) => {
      writeFileSync(join(d, 'added'), 'a');
      mknod(join(d, 'hide'), S_IFCHR, 0, 0); // an overlay whiteout, as an extracted layer has them
    });
    expect(await errorKind(sn.commitOnto('l2', 'extract', 'missing'))).toBe('NotFound');
    await sn.commitOnto('l2', 'extract', 'l1');
    expect(await sn.stat('l2')).toMatchObject({ kind: 'committed', parent: 'l1' });
    await withTempMount(await sn.view('v', 'l2'), async (d) => expect(tree(d)).toEqual(['added=a', 'keep=k']));
    await sn.prepare('child', 'l1');
    expect(await errorKind(sn.commitOnto('l3', 'child', 'l2'))).toBe('FailedPrecondition');
  });

  it('keeps snapshots across a reopen and sweeps directories no row owns', async () => {
    await layer('l1', '', (d) => writeFileSync(join(d, 'f'), '1'));
    await sn.prepare('c', 'l1');
    db.close();
    db = MetadataDB.open(join(root, 'meta.db'));
    sn = new OverlaySnapshotter({ root, db });
    expect(await sn.stat('c')).toMatchObject({ kind: 'active', parent: 'l1' });
    // Leftovers of a crash: an id dir with no row, a half-made temp dir, a half-removed dir.
    mkdirSync(join(root, 'snapshots', '77', 'fs'), { recursive: true });
    mkdirSync(join(root, 'snapshots', 'new-abc', 'fs'), { recursive: true });
    mkdirSync(join(root, 'snapshots', 'rm-3-xyz', 'x'), { recursive: true });
    await sn.cleanup();
    expect(readdirSync(join(root, 'snapshots')).sort()).toEqual(['1', '2']);
    expect(existsSync(join(sn.upperDir('l1'), 'f'))).toBe(true);
    // An id whose dir is a leftover is skipped, never reused onto it.
    mkdirSync(join(root, 'snapshots', '3'));
    await sn.prepare('next', '');
    expect(sn.upperDir('next')).toBe(join(root, 'snapshots', '4', 'fs'));
  });

  it('unmounts the temp mounts an older berth left in the temp dir for its snapshots, and only those', async () => {
    await layer('l1', '', (d) => writeFileSync(join(d, 'f'), '1'));
    await sn.prepare('c', 'l1');
    const bindAt = (source: string) => {
      const target = mkdtempSync(join(tmpdir(), 'berth-mount-'));
      execFileSync('mount', ['--bind', source, target]);
      return target;
    };
    const mounted = (target: string) => readFileSync('/proc/self/mountinfo', 'utf8').split('\n').some((l) => l.split(' ')[4] === target);
    // berths before 2026-12-06 applied layers through such mounts; one killed meanwhile left them.
    const active = bindAt(sn.upperDir('c'));
    mkdirSync(join(root, 'snapshots', '88', 'fs'), { recursive: true });
    const orphan = bindAt(join(root, 'snapshots', '88', 'fs'));
    rmSync(join(root, 'snapshots', '88'), { recursive: true }); // a start since swept its directory: the mount shows it deleted
    mkdirSync(join(root, 'snapshots', '99', 'fs'), { recursive: true });
    const layered = mkdtempSync(join(tmpdir(), 'berth-mount-')); // a layer applied on its parents
    execFileSync('mount', ['-t', 'overlay', 'overlay', '-o', `lowerdir=${join(root, 'snapshots', '99', 'fs')}:${sn.upperDir('l1')}`, layered]);
    const otherRoot = mkdtempSync(join(tmpdir(), 'berth-snap-other-'));
    const foreign = bindAt(otherRoot);
    try {
      await sn.cleanup();
      expect([active, orphan, layered].filter((t) => mounted(t) || existsSync(t))).toEqual([]);
      expect(mounted(foreign)).toBe(true);
      expect(existsSync(join(sn.upperDir('c'), 'f'))).toBe(false); // untouched: an active snapshot's upper dir
      expect(existsSync(sn.upperDir('c'))).toBe(true);
    } finally {
      for (const t of [active, orphan, layered, foreign]) {
        if (mounted(t)) execFileSync('umount', ['-l', t]);
        if (existsSync(t)) rmdirSync(t);
      }
      rmSync(otherRoot, { recursive: true, force: true });
    }
  });

  it('takes committed snapshots on a missing directory off their names at start, renaming those a container stands on', async () => {
    await layer('l1', '', (d) => writeFileSync(join(d, 'f'), '1'));
    await layer('l2', 'l1', (d) => writeFileSync(join(d, 'g'), '2'));
    await layer('l3', 'l2', (d) => writeFileSync(join(d, 'h'), '3'));
    await layer('l3b', 'l2', (d) => writeFileSync(join(d, 'i'), '3b'));
    await sn.prepare('ctr', 'l3b');
    const id = (key: string) => Number(sn.upperDir(key).split('/').at(-2));
    const [l2, l3, l3b] = [id('l2'), id('l3'), id('l3b')];
    rmSync(sn.upperDir('l2'), { recursive: true });
    const lines: Array<Record<string, unknown>> = [];
    sn = new OverlaySnapshotter({ root, db, logger: createLogger({ level: 'info', write: (l) => lines.push(JSON.parse(l) as Record<string, unknown>) }) });
    await sn.cleanup();

    expect(lines.filter((l) => l.level === 'error')).toEqual([
      expect.objectContaining({ msg: expect.stringContaining('directory is missing'), key: 'l2', dir: join(root, 'snapshots', String(l2), 'fs') }),
    ]);
    const all: Info[] = [];
    await sn.walk((i) => void all.push(i));
    // l3 (nothing on it) is gone with its dir; the chain under the container is renamed, l1 kept.
    expect(all.map((i) => [i.name, i.kind, i.parent])).toEqual([
      ['l1', 'committed', undefined],
      [`broken-${l2}-l2`, 'committed', 'l1'],
      [`broken-${l3b}-l3b`, 'committed', `broken-${l2}-l2`],
      ['ctr', 'active', `broken-${l3b}-l3b`],
    ]);
    await sn.drain();
    expect(existsSync(join(root, 'snapshots', String(l3)))).toBe(false);
    expect(await sn.usage(`broken-${l2}-l2`)).toEqual({ size: 0, inodes: 0 });
    // The names are free: the layer is made again on the same parent.
    await layer('l2', 'l1', (d) => writeFileSync(join(d, 'g'), '2 again'));
    expect(await sn.stat('l2')).toMatchObject({ kind: 'committed', parent: 'l1' });

    // A start with the container still there keeps the renamed names; once it is gone, they go.
    await sn.cleanup();
    expect(await sn.stat(`broken-${l3b}-l3b`)).toMatchObject({ parent: `broken-${l2}-l2` });
    await sn.remove('ctr');
    await sn.cleanup();
    const left: string[] = [];
    await sn.walk((i) => void left.push(i.name));
    expect(left).toEqual(['l1', 'l2']);
  });
});

describe('snapshots directory', () => {
  it('is marked as the top of unrelated trees (chattr +T) where the filesystem has inode flags', async () => {
    const probe = join(root, 'probe');
    mkdirSync(probe);
    const attrs = (dir: string) => execFileSync('lsattr', ['-d', dir], { encoding: 'utf8' }).split(' ')[0]!;
    // tmpdir on a filesystem without flags (tmpfs): nothing to check, the snapshotter works anyway
    const supported = markTopDir(probe);
    expect(attrs(join(root, 'snapshots')).includes('T')).toBe(supported);
    expect(attrs(probe).includes('T')).toBe(supported);
    await sn.prepare('active', '');
    expect(attrs(join(root, 'snapshots', readdirSync(join(root, 'snapshots'))[0]!)).includes('T')).toBe(false);
  });
});

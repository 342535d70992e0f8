// applyLayers end to end: real tar layers, the overlay snapshotter, real overlay mounts. The merged
// tree a container would see is checked entry by entry.
import { existsSync, lstatSync, mkdtempSync, readFileSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { kindOf, resourceExhausted } from '../../../internal/errdefs/errors';
import { MetadataDB } from '../../../internal/metadata/db';
import { withTempMount } from '../../../internal/mount';
import { applyLayers, chainIDs, removeStaleExtracts, type Layer } from '../../../internal/rootfs';
import { OverlaySnapshotter, type Info } from '../../../internal/snapshots';
import { lgetxattr } from '../../../internal/sys/fs';
import { buildTar, gzip, sha256, type TarEntry } from '../archive/tarball';

let scratch: string;
let db: MetadataDB;
let sn: OverlaySnapshotter;
beforeEach(() => {
  scratch = mkdtempSync(join(tmpdir(), 'berth-rootfs-'));
  db = MetadataDB.open(join(scratch, 'state', 'meta.db'));
  sn = new OverlaySnapshotter({ root: join(scratch, 'state'), db });
});
afterEach(() => {
  expect(mountsUnder(scratch)).toEqual([]);
  db.close();
  rmSync(scratch, { recursive: true, force: true });
});

function mountsUnder(dir: string): string[] {
  return readFileSync('/proc/self/mounts', 'utf8').split('\n').filter((l) => l.includes(dir));
}

interface TestLayer extends Layer {
  opens: number;
}

async function layerOf(entries: TarEntry[], opts: { gzip?: boolean; diffID?: string } = {}): Promise<TestLayer> {
  const tarball = await buildTar(entries);
  const blob = opts.gzip ? gzip(tarball) : tarball;
  const layer: TestLayer = {
    diffID: opts.diffID ?? sha256(tarball),
    descriptor: { mediaType: 'application/vnd.oci.image.layer.v1.tar' + (opts.gzip ? '+gzip' : ''), digest: sha256(blob), size: blob.length },
    opens: 0,
    open: async () => {
      layer.opens++;
      return Readable.from([blob.subarray(0, 700), blob.subarray(700)], { objectMode: false });
    },
  };
  return layer;
}

const base: TarEntry[] = [
  { name: './', type: 'directory', mode: 0o711 }, // ignored, as containerd ignores it
  { name: 'etc/', type: 'directory' },
  { name: 'etc/passwd', data: 'root\n' },
  { name: 'etc/shadow', data: 'secret', mode: 0o640, gid: 42 },
  { name: 'bin/', type: 'directory' },
  { name: 'bin/busybox', data: 'BB', mode: 0o755 },
  { name: 'bin/sh', type: 'symlink', linkname: 'busybox' },
  { name: 'bin/ls', type: 'link', linkname: 'bin/busybox', mode: 0o755 },
  { name: 'usr/', type: 'directory' },
  { name: 'usr/lib/', type: 'directory', mode: 0o750, uid: 5 },
  { name: 'usr/lib/libold.so', data: 'old' },
  { name: 'var/', type: 'directory' },
  { name: 'var/cache/', type: 'directory' },
  { name: 'var/cache/a', data: 'a' },
  { name: 'var/cache/sub/', type: 'directory' },
  { name: 'var/cache/sub/b', data: 'b' },
  { name: 'tmp/', type: 'directory', mode: 0o1777 },
  { name: 'dev/', type: 'directory' },
  { name: 'dev/null', type: 'character-device', mode: 0o666, devmajor: 1, devminor: 3 },
  { name: 'dev/loop0', type: 'block-device', mode: 0o660, devmajor: 7, devminor: 0, gid: 6 },
  { name: 'run/', type: 'directory' },
  { name: 'run/fifo', type: 'fifo', mode: 0o600 },
  { name: 'opt/', type: 'directory' },
  { name: 'opt/su', data: 'su', mode: 0o4755, uid: 1000 },
  { name: 'home/', type: 'directory' },
  { name: 'home/user/', type: 'directory', mode: 0o700, uid: 1000, gid: 1000 },
];
// No directory entries for usr/lib or home/user: they must keep the base's owner and mode.
const second: TarEntry[] = [
  { name: 'etc/passwd', data: 'root\nuser\n' },
  { name: 'etc/.wh.shadow', data: '' },
  { name: 'var/cache/.wh..wh..opq', data: '' },
  { name: 'var/cache/new', data: 'n' },
  { name: 'usr/lib/libnew.so', data: 'new' },
  { name: 'home/user/.profile', data: 'p', uid: 1000, gid: 1000 },
];
const third: TarEntry[] = [
  { name: 'bin/.wh.ls', data: '' },
  { name: '.wh.opt', data: '' },
  { name: 'newdir/', type: 'directory', mode: 0o750 },
  { name: 'newdir/file', data: 'f', pax: { 'SCHILY.xattr.user.note': 'kept' } },
  { name: 'lib', type: 'symlink', linkname: 'usr/lib' },
];

const expectedTree = [
  '/ dir 755 0:0',
  'bin dir 755 0:0',
  'bin/busybox file 755 0:0 BB',
  'bin/sh symlink 0:0 ->busybox',
  'dev dir 755 0:0',
  'dev/loop0 block 660 0:6 7:0',
  'dev/null char 666 0:0 1:3',
  'etc dir 755 0:0',
  'etc/passwd file 644 0:0 root\nuser\n',
  'home dir 755 0:0',
  'home/user dir 700 1000:1000',
  'home/user/.profile file 644 1000:1000 p',
  'lib symlink 0:0 ->usr/lib',
  'newdir dir 750 0:0',
  'newdir/file file 644 0:0 f user.note=kept',
  'run dir 755 0:0',
  'run/fifo fifo 600 0:0',
  'tmp dir 1777 0:0',
  'usr dir 755 0:0',
  'usr/lib dir 750 5:0',
  'usr/lib/libnew.so file 644 0:0 new',
  'usr/lib/libold.so file 644 0:0 old',
  'var dir 755 0:0',
  'var/cache dir 755 0:0',
  'var/cache/new file 644 0:0 n',
];

/** What a process in the container sees: one line per path, sorted. */
function describeTree(root: string): string[] {
  const lines: string[] = [];
  const visit = (rel: string): void => {
    const abs = join(root, rel);
    const st = lstatSync(abs);
    const mode = (st.mode & 0o7777).toString(8);
    const owner = `${st.uid}:${st.gid}`;
    const name = rel === '' ? '/' : rel;
    if (st.isDirectory()) {
      lines.push(`${name} dir ${mode} ${owner}`);
      for (const child of readdirSync(abs).sort()) visit(rel ? `${rel}/${child}` : child);
    } else if (st.isSymbolicLink()) {
      lines.push(`${name} symlink ${owner} ->${readlinkSync(abs)}`);
    } else if (st.isFile()) {
      const note = lgetxattr(abs, 'user.note');
      lines.push(`${name} file ${mode} ${owner} ${readFileSync(abs, 'utf8')}${note ? ` user.note=${note.toString()}` : ''}`);
    } else if (st.isCharacterDevice() || st.isBlockDevice()) {
      lines.push(`${name} ${st.isCharacterDevice() ? 'char' : 'block'} ${mode} ${owner} ${st.rdev >> 8}:${st.rdev & 0xff}`);
    } else if (st.isFIFO()) {
      lines.push(`${name} fifo ${mode} ${owner}`);
    }
  };
  visit('');
  return lines.sort();
}

async function allSnapshots(): Promise<Info[]> {
  const out: Info[] = [];
  await sn.walk((i) => void out.push(i));
  return out;
}

describe.each([
  ['concurrently (per-layer extract, commit onto parent)', false],
  ['sequentially (on the mounted parent, as containerd)', true],
])('applyLayers %s', (_mode, sequential) => {
  const apply = (layers: Layer[]) => applyLayers(sn, layers, { sequential });

  it('unpacks three layers into the exact merged tree, and removing leaves nothing', async () => {
    const layers = [await layerOf(base, { gzip: true }), await layerOf(second), await layerOf(third, { gzip: true })];
    const top = await apply(layers);
    const chain = chainIDs(layers.map((l) => l.diffID));
    expect(top).toBe(chain[2]);
    // Concurrent extracts are listed in whichever order they were prepared: compared by name.
    const byName = (a: unknown[], b: unknown[]) => String(a[0]).localeCompare(String(b[0]));
    expect((await allSnapshots()).map((i) => [i.name, i.kind, i.parent]).sort(byName)).toEqual(
      [
        [chain[0], 'committed', undefined],
        [chain[1], 'committed', chain[0]],
        [chain[2], 'committed', chain[1]],
      ].sort(byName),
    );

    const mounts = await sn.prepare('container', top);
    await withTempMount(mounts, async (root) => expect(describeTree(root)).toEqual(expectedTree));

    for (const key of ['container', chain[2], chain[1], chain[0]] as string[]) await sn.remove(key);
    expect(readdirSync(join(scratch, 'state', 'snapshots'))).toEqual([]);
  });

  it('reuses committed layers and opens nothing it already has', async () => {
    const layers = [await layerOf(base), await layerOf(second), await layerOf(third)];
    await apply(layers.slice(0, 2));
    await apply(layers);
    expect(layers.map((l) => l.opens)).toEqual([1, 1, 1]);
    await apply(layers);
    expect(layers.map((l) => l.opens)).toEqual([1, 1, 1]);
  });

  it('extracts an image once when unpacked concurrently, and a shared base once', async () => {
    const [l1, l2, l3] = [await layerOf(base), await layerOf(second), await layerOf(third)] as TestLayer[];
    const image = [l1, l2, l3] as Layer[];
    const other = [l1, l3] as Layer[];
    const tops = await Promise.all([apply(image), apply(image), apply(other), apply(image)]);
    expect(new Set(tops.slice(0, 2))).toEqual(new Set([chainIDs(image.map((l) => l.diffID))[2]]));
    expect(l1?.opens).toBe(1);
    expect(l2?.opens).toBe(1);
    expect(l3?.opens).toBe(2); // once in each image: different chains
    expect((await allSnapshots()).every((i) => i.kind === 'committed')).toBe(true);
    expect(await allSnapshots()).toHaveLength(4); // 3 chains of the image + 1 of the other on the shared base
  });

  it('refuses a hostile layer, commits nothing for it and leaves no extract behind', async () => {
    const layers = [
      await layerOf(base),
      await layerOf([{ name: 'ok', data: 'fine' }, { name: 'escape/../../../pwned', data: 'x' }]),
      await layerOf(third),
    ];
    const before = readdirSync(scratch).sort();
    const err = await apply(layers).catch((e: unknown) => e);
    expect(kindOf(err)).toBe('InvalidArgument');
    expect(String(err)).toContain('"escape/../../../pwned"');
    const chain = chainIDs(layers.map((l) => l.diffID));
    const left = await allSnapshots();
    expect(left.map((i) => i.name).filter((n) => n !== chain[0])).toEqual([]);
    expect(left.every((i) => i.kind === 'committed')).toBe(true);
    expect(readdirSync(scratch).sort()).toEqual(before);
    expect(readdirSync(join(scratch, 'state', 'snapshots')).length).toBe(left.length);
  });

  it('fails on a diffID mismatch without committing the layer', async () => {
    const good = await layerOf(base);
    const liar = await layerOf(second, { diffID: sha256(Buffer.from('not this layer')) });
    const err = await apply([good, liar]).catch((e: unknown) => e);
    expect(kindOf(err)).toBe('InvalidArgument');
    expect(String(err)).toContain(liar.diffID);
    const left = await allSnapshots();
    expect(left.map((i) => i.name)).toEqual([good.diffID]);
    expect(readdirSync(join(scratch, 'state', 'snapshots')).length).toBe(1);
  });

  // Applied on the mounted parent (a snapshotter that cannot rebase) the symlink is followed, as
  // containerd's apply on a mounted view follows it; the overlay way is containerd's overlay way.
  (sequential ? it.skip : it)("makes a directory where a lower layer has a symlink on an entry's implied parent, as containerd does", async () => {
    const layers = [
      await layerOf([
        { name: 'usr/lib/', type: 'directory', mode: 0o750, uid: 5 },
        { name: 'usr/lib/libc.so', data: 'c' },
        { name: 'lib', type: 'symlink', linkname: 'usr/lib' },
        { name: 'var/', type: 'directory' },
        { name: 'var/run', type: 'symlink', linkname: '/run' },
        { name: 'run/', type: 'directory' },
      ]),
      await layerOf([
        { name: 'lib/libz.so', data: 'z' },
        { name: 'var/run/pid', data: '1' },
      ]),
    ];
    const top = await apply(layers);
    await withTempMount(await sn.view('v', top), async (root) => {
      // containerd applies a layer into its own upper dir: the implied "lib" is a directory there,
      // with the attributes of what the lower "lib" leads to, and it hides the lower symlink.
      const lib = lstatSync(join(root, 'lib'));
      expect(lib.isDirectory()).toBe(true);
      expect([lib.mode & 0o7777, lib.uid]).toEqual([0o750, 5]);
      expect(readdirSync(join(root, 'lib'))).toEqual(['libz.so']);
      expect(readFileSync(join(root, 'usr/lib/libc.so'), 'utf8')).toBe('c');
      expect(existsSync(join(root, 'usr/lib/libz.so'))).toBe(false);
      expect(lstatSync(join(root, 'var/run')).isDirectory()).toBe(true);
      expect(readFileSync(join(root, 'var/run/pid'), 'utf8')).toBe('1');
      expect(readdirSync(join(root, 'run'))).toEqual([]);
    });
  });

  it("hard-links a lower layer's file as applying on the parent would, and refuses a target in neither", async () => {
    const layers = [
      await layerOf([{ name: 'bin/', type: 'directory' }, { name: 'bin/a', data: 'busybox', mode: 0o755 }]),
      await layerOf([{ name: 'bin/b', type: 'link', linkname: 'bin/a' }]),
    ];
    const top = await apply(layers);
    await withTempMount(await sn.view('v', top), async (root) => {
      expect(readFileSync(join(root, 'bin/b'), 'utf8')).toBe('busybox');
      expect(lstatSync(join(root, 'bin/b')).ino).toBe(lstatSync(join(root, 'bin/a')).ino);
    });

    const dangling = [layers[0]!, await layerOf([{ name: 'bin/c', type: 'link', linkname: 'bin/nowhere' }])];
    const err = await apply(dangling).catch((e: unknown) => e);
    expect(kindOf(err)).toBe('InvalidArgument');
    expect(String(err)).toContain('hard link target "bin/nowhere" is not in this layer or its parents');
    expect((await allSnapshots()).filter((i) => i.kind !== 'committed' && i.name !== 'v')).toEqual([]);
  });
});

describe('applyLayers on a disk too full to remove one extract before the others', () => {
  it('removes every extract snapshot of a failed unpack, retrying what failed once the others are gone', async () => {
    // The first layer is refused while the two others extract beside it: three extract snapshots
    // to remove. As on a full disk, where SQLite cannot log a delete until enough files are gone,
    // the first one's removal fails while the other extract snapshots still exist.
    const layers = [
      await layerOf([{ name: 'escape/../../../pwned', data: 'x' }]),
      await layerOf(second),
      await layerOf(third),
    ];
    const remove = sn.remove.bind(sn);
    let refused = 0;
    let first: string | undefined;
    sn.remove = async (key: string) => {
      first ??= key;
      const others = (await allSnapshots()).filter((i) => i.name.startsWith('extract-') && i.name !== key);
      if (key === first && others.length > 0) {
        refused++;
        throw resourceExhausted('database or disk is full');
      }
      return remove(key);
    };
    const err = await applyLayers(sn, layers, { concurrency: 3 }).catch((e: unknown) => e);
    expect(kindOf(err)).toBe('InvalidArgument');
    expect(refused).toBeGreaterThan(0);
    expect(await allSnapshots()).toEqual([]);
    expect(readdirSync(join(scratch, 'state', 'snapshots'))).toEqual([]);
  });
});

describe('removeStaleExtracts', () => {
  it('removes the extract snapshots an interrupted unpack left, and nothing else', async () => {
    const [l1] = [await layerOf(base)];
    const top = await applyLayers(sn, [l1 as Layer]);
    await sn.prepare(`extract-0123456789ab-${top}`, top);
    await sn.prepare('extract-0123456789ab-orphan', '');
    await sn.prepare('container', top);
    expect((await removeStaleExtracts(sn)).sort()).toEqual([`extract-0123456789ab-${top}`, 'extract-0123456789ab-orphan'].sort());
    expect((await allSnapshots()).map((i) => i.name).sort()).toEqual(['container', top].sort());
  });
});

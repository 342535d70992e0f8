// applyLayers of a two-layer image whose second layer writes below a/x and then replaces a parent
// by a symlink: the directories the layer only implied take their parent's owner, mode, times
// and xattrs (concurrent unpack), and that must never go through the symlink. The victim outside
// the snapshots stays untouched (ctime included), and the merged tree is containerd's.
import { lstatSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { MetadataDB } from '../../../internal/metadata/db';
import { withTempMount } from '../../../internal/mount';
import { applyLayers, type Layer } from '../../../internal/rootfs';
import { OverlaySnapshotter } from '../../../internal/snapshots';
import { baseLayer, describeTree, makeVictim, parentSwaps, T_BASE, victimState } from '../../harness/hostile_layers';
import { buildTar, sha256, type TarEntry } from '../archive/tarball';

let scratch: string;
let db: MetadataDB;
let sn: OverlaySnapshotter;
let victim: string;
beforeEach(() => {
  scratch = mkdtempSync(join(tmpdir(), 'berth-rootfs-swap-'));
  db = MetadataDB.open(join(scratch, 'state', 'meta.db'));
  sn = new OverlaySnapshotter({ root: join(scratch, 'state'), db });
  victim = makeVictim(scratch);
});
afterEach(() => {
  expect(readFileSync('/proc/self/mounts', 'utf8').includes(scratch)).toBe(false);
  db.close();
  rmSync(scratch, { recursive: true, force: true });
});

async function layerOf(entries: TarEntry[]): Promise<Layer> {
  const tarball = await buildTar(entries);
  return {
    diffID: sha256(tarball),
    descriptor: { mediaType: 'application/vnd.oci.image.layer.v1.tar', digest: sha256(tarball), size: tarball.length },
    open: async () => Readable.from([tarball], { objectMode: false }),
  };
}

describe.each([
  ['concurrently (per-layer extract, implied parents adopted from the parent)', false],
  ['sequentially (on the mounted parent, as containerd)', true],
])('applyLayers %s', (_mode, sequential) => {
  it.each(parentSwaps('<victim>').map((s, i) => [s.what, i] as const))('%s', async (_what, i) => {
    const swap = parentSwaps(victim)[i]!;
    const before = victimState(victim);
    const top = await applyLayers(sn, [await layerOf(baseLayer()), await layerOf(swap.entries)], { sequential });
    expect(victimState(victim)).toEqual(before);
    await withTempMount(await sn.view('check', top), async (root) => expect(describeTree(root)).toEqual(swap.onBase));
  });

  it('gives a directory the layer only implied its parent\'s owner, mode, times and xattrs', async () => {
    const top = await applyLayers(sn, [await layerOf(baseLayer()), await layerOf([{ name: 'a/x/f', data: 'f' }])], { sequential });
    await withTempMount(await sn.view('check', top), async (root) => {
      expect(describeTree(root)).toContain('a/x dir 751 11:12 user.base=b');
      // containerd's overlay copy-up keeps the mtime only until the file lands in it; berth adopts
      // the parent's after the layer is written, so only the concurrent path keeps T_BASE.
      if (!sequential) expect(lstatSync(join(root, 'a/x')).mtimeMs).toBe(T_BASE.getTime());
    });
  });
});

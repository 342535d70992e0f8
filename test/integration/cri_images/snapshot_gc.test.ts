// Snapshot GC against a real overlay snapshotter and image store: a container's active snapshot
// keeps its image's chain alive after the image is removed; once it goes, the chain goes too.
// And the GC waits for an unpack that has not recorded its image yet.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalContentStore } from '../../../internal/content/local';
import { topChainId } from '../../../internal/cri/image_unpack';
import { collectImageSnapshots, gatedUnpack, snapshotGcGate } from '../../../internal/cri/snapshot_gc';
import { ImageService } from '../../../internal/images/service';
import { MetadataDB } from '../../../internal/metadata/db';
import { chainIDs } from '../../../internal/rootfs';
import { OverlaySnapshotter } from '../../../internal/snapshots/overlay/overlay';
import { BUSYBOX_IMAGE, testImages, type TestImagePaths } from '../../harness/images';

jest.setTimeout(120_000);

describe('image snapshot GC', () => {
  let paths: TestImagePaths;
  let root: string;
  let db: MetadataDB;
  let images: ImageService;
  let sn: OverlaySnapshotter;
  let content: LocalContentStore;

  const committed = async () => {
    const names: string[] = [];
    await sn.walk((info) => void names.push(info.name), 'kind==committed');
    return names.sort();
  };

  beforeAll(async () => {
    paths = await testImages();
  });

  beforeEach(async () => {
    root = mkdtempSync(join(tmpdir(), 'berth-snapshot-gc-'));
    db = MetadataDB.open(join(root, 'metadata.db'));
    content = new LocalContentStore(root);
    images = new ImageService({ db, content });
    sn = await OverlaySnapshotter.open({ root: join(root, 'overlayfs'), db });
  });

  afterEach(() => {
    db.close();
    rmSync(root, { recursive: true, force: true });
  });

  async function importBusybox(): Promise<string[]> {
    const gated = gatedUnpack(sn, content, images);
    try {
      await images.import(paths.busyboxOci, { unpack: gated.unpack });
    } finally {
      gated.release(true);
    }
    return chainIDs((await images.resolve(BUSYBOX_IMAGE)).config.diffIds);
  }

  it('keeps a chain under an active container snapshot, and removes it once that is gone', async () => {
    const chain = await importBusybox();
    expect(await committed()).toEqual([...chain].sort());
    await sn.prepare('container-rootfs', topChainId(await images.resolve(BUSYBOX_IMAGE)));

    await images.remove(BUSYBOX_IMAGE);
    expect(await collectImageSnapshots(sn, images)).toEqual([]);
    expect(await committed()).toEqual([...chain].sort());

    await sn.remove('container-rootfs');
    expect((await collectImageSnapshots(sn, images)).sort()).toEqual([...chain].sort());
    expect(await committed()).toEqual([]);
  });

  it('keeps the chains of images that are still recorded', async () => {
    const chain = await importBusybox();
    expect(await collectImageSnapshots(sn, images)).toEqual([]);
    expect(await committed()).toEqual([...chain].sort());
  });

  it('waits for a container snapshot prepare in progress (gate held shared) before collecting', async () => {
    const gate = snapshotGcGate(sn);
    const releasePrepare = await gate.acquireShared(); // CreateContainer between resolve and prepare
    const order: string[] = [];
    const gc = collectImageSnapshots(sn, images).then(() => order.push('gc'));
    await new Promise((resolve) => setImmediate(resolve));
    order.push('prepared');
    releasePrepare();
    await gc;
    expect(order).toEqual(['prepared', 'gc']);
  });

  it('keeps the chains an unpack in flight protected, without waiting for it to end', async () => {
    const chain = await importBusybox();
    // A pull of the same image is downloading: its chains are protected until it records the image.
    const unprotect = await snapshotGcGate(sn).protect(chain);
    await images.remove(BUSYBOX_IMAGE);
    expect(await collectImageSnapshots(sn, images)).toEqual([]); // returns while the pull runs
    expect(await committed()).toEqual([...chain].sort());
    unprotect();
    expect((await collectImageSnapshots(sn, images)).sort()).toEqual([...chain].sort());
    expect(await committed()).toEqual([]);
  });

  it('releases what an unpack protected once the import is over', async () => {
    const chain = await importBusybox(); // gatedUnpack protected, then released
    await images.remove(BUSYBOX_IMAGE);
    expect((await collectImageSnapshots(sn, images)).sort()).toEqual([...chain].sort());
  });

  it('keeps the chains of an image recorded and unprotected while the GC is reading the image list', async () => {
    const chain = await importBusybox();
    const pause = gatedUnpack(sn, content, images);
    try {
      await images.import(paths.pauseOci, { unpack: pause.unpack }); // an image for the GC to resolve
    } finally {
      pause.release(true);
    }
    // A pull of busybox is in flight: its record is not there yet and its chains are protected.
    const record = images.store.list().find((r) => r.name === BUSYBOX_IMAGE)!;
    const unprotect = await snapshotGcGate(sn).protect(chain);
    await images.remove(BUSYBOX_IMAGE);
    // While the GC resolves the images it listed, the pull records busybox and unprotects.
    const resolve = images.resolve.bind(images);
    let hooked = false;
    images.resolve = async (ref: string) => {
      if (!hooked) {
        hooked = true;
        images.store.put({ name: record.name, target: record.target, configDigest: record.configDigest, labels: record.labels });
        unprotect();
      }
      return resolve(ref);
    };
    await collectImageSnapshots(sn, images);
    expect(hooked).toBe(true);
    for (const c of chain) expect(await committed()).toContain(c);
  });
});


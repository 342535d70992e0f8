// ImageService where a removal meets other calls: a list that read the records just before a
// RemoveImage took them (and its GC the blobs) answers without that image, as containerd's
// in-memory store would; a RemoveImage retried after a kill cut the first short between the records
// and the blobs still collects the blobs.
import { existsSync, mkdtempSync, rmSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalContentStore } from '../../../internal/content/local';
import { ImageService } from '../../../internal/images/service';
import { MetadataDB } from '../../../internal/metadata/db';
import { BUSYBOX_IMAGE, PAUSE_IMAGE, testImages, type TestImagePaths } from '../../harness/images';

jest.setTimeout(60_000);

describe('image removal against other calls', () => {
  let paths: TestImagePaths;
  let root: string;
  let db: MetadataDB;
  let content: LocalContentStore;

  const blobFile = (digest: string) => join(root, 'content', 'blobs', 'sha256', digest.slice('sha256:'.length));

  beforeAll(async () => {
    paths = await testImages();
  });

  beforeEach(async () => {
    root = mkdtempSync(join(tmpdir(), 'berth-image-races-'));
    db = MetadataDB.open(join(root, 'metadata.db'));
    content = new LocalContentStore(root);
    const images = new ImageService({ db, content });
    await images.import(paths.busyboxOci);
    await images.import(paths.pauseOci);
  });

  afterEach(() => {
    db.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('lists without an image whose records and blobs went while the list read them (views not cached yet, as after a start)', async () => {
    const images = new ImageService({ db, content }); // nothing resolved yet
    const pause = images.store.list().find((r) => r.name === PAUSE_IMAGE)!;
    const listing = images.list(); // has read the records
    images.store.deleteAll(images.store.listByConfig(pause.configDigest).map((r) => r.name));
    unlinkSync(blobFile(pause.target.digest)); // as RemoveImage's GC would
    const listed = await listing;
    expect(listed.map((i) => i.repoTags)).toEqual([[BUSYBOX_IMAGE]]);
    await expect(images.get(pause.configDigest)).rejects.toThrow('not found');
  });

  it('collects the blobs of an image whose records a killed RemoveImage already deleted, when RemoveImage is retried', async () => {
    const images = new ImageService({ db, content });
    const pause = images.store.list().find((r) => r.name === PAUSE_IMAGE)!;
    images.store.deleteAll(images.store.listByConfig(pause.configDigest).map((r) => r.name)); // the kill came here
    expect(existsSync(blobFile(pause.configDigest))).toBe(true);
    expect(await images.remove(PAUSE_IMAGE)).toEqual([]);
    expect(existsSync(blobFile(pause.configDigest))).toBe(false);
    expect(existsSync(blobFile(pause.target.digest))).toBe(false);
  });
});

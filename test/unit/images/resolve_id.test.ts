// ImageService.resolveId: references, full IDs and ID prefixes to the image ID, as the CRI resolves
// ImageSpec.image; its answers are kept between calls, so every write to the records must show in
// the next answer (real better-sqlite3, in memory).
import { isNotFound } from '../../../internal/errdefs/errors';
import type { ManagedContentStore } from '../../../internal/content/types';
import { ImageService } from '../../../internal/images/service';
import { MediaType } from '../../../internal/images/oci';
import { MetadataDB } from '../../../internal/metadata/db';
import { thrownBy } from '../../harness/thrown';

const id = (c: string) => `sha256:${c.repeat(64)}`;
const target = (c: string) => ({ mediaType: MediaType.ociManifest, digest: id(c), size: 100 });
const BUSYBOX = 'docker.io/library/busybox:latest';

describe('ImageService.resolveId', () => {
  let db: MetadataDB;
  let images: ImageService;
  beforeEach(() => {
    db = MetadataDB.open(':memory:');
    images = new ImageService({ db, content: {} as ManagedContentStore }); // resolveId reads no blob
  });
  afterEach(() => db.close());

  it('resolves a short name, a full name, a full ID with and without sha256: and a unique prefix', () => {
    images.store.put({ name: BUSYBOX, target: target('a'), configDigest: id('1') });
    images.store.put({ name: 'registry.k8s.io/pause:3.9', target: target('b'), configDigest: `sha256:12${'0'.repeat(62)}` });
    for (const ref of ['busybox', BUSYBOX, id('1'), '1'.repeat(64), 'sha256:111']) expect(images.resolveId(ref)).toBe(id('1'));
    expect(() => images.resolveId('sha256:1')).toThrow(/ambiguous/);
    expect(isNotFound(thrownBy(() => images.resolveId(id('3'))))).toBe(true);
  });

  it('answers a repeated call without a query, and the next call after any write from the records', () => {
    images.store.put({ name: BUSYBOX, target: target('a'), configDigest: id('1') });
    const lookups = jest.spyOn(images.store, 'tryGet');
    expect(images.resolveId('busybox')).toBe(id('1'));
    expect(images.resolveId('busybox')).toBe(id('1'));
    expect(lookups).toHaveBeenCalledTimes(1);

    images.store.put({ name: BUSYBOX, target: target('b'), configDigest: id('2') }); // re-pulled: the tag moved
    expect(images.resolveId('busybox')).toBe(id('2'));
    expect(images.resolveId(id('1'))).toBe(id('1')); // kept by its ID, untagged
    images.store.deleteAll([BUSYBOX, id('1')]);
    expect(isNotFound(thrownBy(() => images.resolveId(id('1'))))).toBe(true);
    expect(isNotFound(thrownBy(() => images.resolveId('busybox')))).toBe(true);
    expect(isNotFound(thrownBy(() => images.resolveId(id('2'))))).toBe(true);
  });

  it('stays bounded when a client names many references', () => {
    const names = Array.from({ length: 1500 }, (_, n) => `example.com/app${n}:latest`);
    images.store.putAll(names.map((name) => ({ name, target: target('a'), configDigest: id('1') })));
    for (const name of names) expect(images.resolveId(name)).toBe(id('1'));
    const kept = (images as unknown as { recordsByRef: { kept: Map<string, unknown> } }).recordsByRef.kept;
    expect(kept.size).toBeGreaterThan(0);
    expect(kept.size).toBeLessThanOrEqual(1024);
  });
});

// The SQLite image store (real better-sqlite3, in memory) and the CRI view derived from it.
import { MetadataDB } from '../../../internal/metadata/db';
import { ImageStore } from '../../../internal/images/store';
import { groupById, repoTagsAndDigests, splitUser } from '../../../internal/images/cri_view';
import { MediaType } from '../../../internal/images/oci';

const d = (c: string) => `sha256:${c.repeat(64)}`;
const target = (c: string) => ({ mediaType: MediaType.ociManifest, digest: d(c), size: 100 });

describe('ImageStore', () => {
  let db: MetadataDB;
  let store: ImageStore;
  beforeEach(() => {
    db = MetadataDB.open(':memory:');
    store = new ImageStore(db);
  });
  afterEach(() => db.close());

  it('puts, gets, lists, re-points and deletes by name', () => {
    store.put({ name: 'docker.io/library/busybox:latest', target: target('a'), configDigest: d('1'), labels: { x: 'y' } });
    store.put({ name: 'docker.io/library/busybox:1.36', target: target('a'), configDigest: d('1') });
    store.put({ name: 'registry.k8s.io/pause:3.9', target: target('b'), configDigest: d('2') });
    expect(store.get('docker.io/library/busybox:latest')).toMatchObject({ target: target('a'), configDigest: d('1'), labels: { x: 'y' } });
    expect(store.list().map((r) => r.name)).toEqual([
      'docker.io/library/busybox:1.36',
      'docker.io/library/busybox:latest',
      'registry.k8s.io/pause:3.9',
    ]);
    expect(store.listByConfig(d('1')).length).toBe(2);
    expect(store.idsWithPrefix('11')).toEqual([d('1')]);
    expect(store.idsWithPrefix('%')).toEqual([]);
    const created = store.get('registry.k8s.io/pause:3.9').createdAt;
    store.put({ name: 'registry.k8s.io/pause:3.9', target: target('c'), configDigest: d('3') });
    expect(store.get('registry.k8s.io/pause:3.9')).toMatchObject({ configDigest: d('3'), createdAt: created });
    // The image that lost its last name stays, named by its ID (containerd keeps it, untagged); one
    // that keeps another name gets none.
    expect(store.listByConfig(d('2')).map((r) => [r.name, r.target])).toEqual([[d('2'), target('b')]]);
    store.put({ name: 'docker.io/library/busybox:latest', target: target('c'), configDigest: d('3') });
    expect(store.listByConfig(d('1')).map((r) => r.name)).toEqual(['docker.io/library/busybox:1.36']);
    store.delete('registry.k8s.io/pause:3.9');
    expect(store.tryGet('registry.k8s.io/pause:3.9')).toBeUndefined();
    expect(() => store.delete('registry.k8s.io/pause:3.9')).toThrow(/registry.k8s.io\/pause:3.9.*not found/);
    expect(() => store.get('nope')).toThrow(/not found/);
  });

  it('rejects bad digests naming the image', () => {
    expect(() => store.put({ name: 'x', target: { ...target('a'), digest: 'sha256:zz' }, configDigest: d('1') })).toThrow(/image x: invalid target digest/);
    expect(() => store.put({ name: 'x', target: target('a'), configDigest: 'nope' })).toThrow(/image x: invalid config digest/);
  });

  it('deleteAll is all or nothing', () => {
    store.put({ name: 'a:1', target: target('a'), configDigest: d('1') });
    expect(() => store.deleteAll(['a:1', 'missing:1'])).toThrow(/missing:1/);
    expect(store.tryGet('a:1')).toBeDefined();
  });
});

describe('CRI view', () => {
  const rec = (name: string, t: string, id: string) => ({
    name,
    target: target(t),
    configDigest: d(id),
    labels: {},
    createdAt: new Date(0),
    updatedAt: new Date(0),
  });

  it('one image per ID; repo_tags are tagged names, repo_digests the digest names (as containerd: a tag vouches for no digest)', () => {
    const records = [
      rec('docker.io/library/busybox:latest', 'a', '1'),
      rec('docker.io/library/busybox:1.36', 'a', '1'),
      rec(`docker.io/library/busybox@${d('a')}`, 'a', '1'),
      rec('berth.test/busybox:docker', 'b', '1'),
      rec(d('1'), 'a', '1'), // the ID as a name, as containerd records it: not a tag nor a digest ref
      rec('registry.k8s.io/pause:3.9', 'c', '2'),
    ];
    const byId = groupById(records);
    expect([...byId.keys()]).toEqual([d('1'), d('2')]);
    expect(repoTagsAndDigests(byId.get(d('1')) ?? [])).toEqual({
      repoTags: ['berth.test/busybox:docker', 'docker.io/library/busybox:1.36', 'docker.io/library/busybox:latest'],
      repoDigests: [`docker.io/library/busybox@${d('a')}`],
    });
  });

  it('splits config.User into uid or username', () => {
    expect(splitUser('')).toEqual({ username: '' });
    expect(splitUser('1000')).toEqual({ uid: 1000, username: '' });
    expect(splitUser('0:0')).toEqual({ uid: 0, username: '' });
    expect(splitUser('nobody:nogroup')).toEqual({ username: 'nobody' });
  });
});

describe('ImageStore on a full disk', () => {
  it('answers ResourceExhausted for a put that does not fit, and keeps what it had', () => {
    const db = MetadataDB.open(':memory:');
    try {
      const store = new ImageStore(db);
      store.put({ name: 'docker.io/library/busybox:latest', target: target('a'), configDigest: d('1') });
      // SQLite's own size cap stands in for the disk: no page beyond the ones in use.
      const pages = db.sqlite.pragma('page_count', { simple: true }) as number;
      db.sqlite.pragma(`max_page_count = ${pages}`);
      const big = { name: 'registry.k8s.io/big:1', target: target('b'), configDigest: d('2'), labels: { blob: 'x'.repeat(64 * 1024) } };
      expect(() => store.put(big)).toThrow(expect.objectContaining({ kind: 'ResourceExhausted' }));
      expect(store.tryGet(big.name)).toBeUndefined();
      expect(store.list().map((r) => r.name)).toEqual(['docker.io/library/busybox:latest']);
      db.sqlite.pragma(`max_page_count = ${pages * 1000}`);
      expect(store.put(big).name).toBe(big.name);
    } finally {
      db.close();
    }
  });
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MetadataDB } from '../../../internal/metadata/db';
import { ContainerStore, containerState, type ContainerMetadata, type ContainerStatus } from '../../../internal/cri/store/container';
import { NameIndex } from '../../../internal/cri/store/name_index';
import { KeyedMutex } from '../../../internal/cri/store/keyed_mutex';
import { resolveIdPrefix } from '../../../internal/cri/store/id_index';
import { kindOf } from '../../../internal/errdefs/errors';
import { thrownBy } from '../../harness/thrown';

const hex = (c: string) => c.repeat(64);

function meta(id: string, name: string): ContainerMetadata {
  return {
    id, name, sandboxId: hex('s'), config: {} as ContainerMetadata['config'], imageRef: 'busybox', imageId: 'sha256:x',
    logPath: '', snapshotKey: id, stateDir: '/x', rootDir: '/y', stopSignal: 'SIGTERM', runtimeHandler: 'runc',
    runtimeType: 'io.containerd.runc.v2',
  };
}
const created: ContainerStatus = {
  pid: 0, createdAt: '1', startedAt: '0', finishedAt: '0', exitCode: 0, reason: '', message: '', unknown: false,
};

describe('NameIndex', () => {
  it('reserves a name for one key only, idempotently', () => {
    const names = new NameIndex();
    names.reserve('a', 'k1');
    names.reserve('a', 'k1');
    expect(() => names.reserve('a', 'k2')).toThrow(/reserved for "k1"/);
    names.releaseByKey('k1');
    names.reserve('a', 'k2');
    expect(names.get('a')).toBe('k2');
  });
});

describe('resolveIdPrefix', () => {
  const ids = ['abc1', 'abc2', 'def0'];
  it('finds exact and unique prefixes, refuses ambiguous and unknown ones', () => {
    expect(resolveIdPrefix(ids, 'd', 'container')).toBe('def0');
    expect(resolveIdPrefix(ids, 'abc2', 'container')).toBe('abc2');
    expect(() => resolveIdPrefix(ids, 'abc', 'container')).toThrow(/ambiguous/);
    expect(kindOf(thrownBy(() => resolveIdPrefix(ids, 'zz', 'container')))).toBe('NotFound');
    expect(kindOf(thrownBy(() => resolveIdPrefix(ids, '', 'container')))).toBe('InvalidArgument');
  });
});

describe('ContainerStore', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'berth-store-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('persists records and status transitions across a reload', () => {
    const db = MetadataDB.open(join(dir, 'meta.db'));
    const store = new ContainerStore(db);
    store.add(meta(hex('a'), 'one'), { spec: 1 }, created);
    expect(kindOf(thrownBy(() => store.add(meta(hex('a'), 'two'), {}, created)))).toBe('AlreadyExists');
    store.updateStatus(hex('a'), (s) => ({ ...s, pid: 42, startedAt: '5' }));
    db.close();

    const reopened = new ContainerStore(MetadataDB.open(join(dir, 'meta.db')));
    const [c] = reopened.load();
    expect(c.id).toBe(hex('a'));
    expect(c.spec).toEqual({ spec: 1 });
    expect(c.status.pid).toBe(42);
    expect(containerState(c.status)).toBe('CONTAINER_RUNNING');
    expect(reopened.get('aaaa').id).toBe(hex('a'));
    reopened.delete(hex('a'));
    expect(reopened.load()).toHaveLength(0);
  });

  it('prepares each statement once per connection, and a cached one serves every later write', () => {
    const db = MetadataDB.open(join(dir, 'meta.db'));
    const prepare = jest.spyOn(db.sqlite, 'prepare');
    const store = new ContainerStore(db);
    store.add(meta(hex('a'), 'one'), {}, created);
    for (let pid = 1; pid <= 5; pid++) store.updateStatus(hex('a'), (s) => ({ ...s, pid, startedAt: '5' }));
    const updates = prepare.mock.calls.filter(([sql]) => sql.startsWith('UPDATE containers SET status'));
    expect(updates).toHaveLength(1);
    expect(db.prepare('SELECT 1')).toBe(db.prepare('SELECT 1'));
    db.close();
    expect(new ContainerStore(MetadataDB.open(join(dir, 'meta.db'))).load()[0]!.status.pid).toBe(5);
  });

  it('refuses a second container with the same name at the database level', () => {
    const db = MetadataDB.open(join(dir, 'meta.db'));
    const store = new ContainerStore(db);
    store.add(meta(hex('a'), 'same'), {}, created);
    expect(() => store.add(meta(hex('b'), 'same'), {}, created)).toThrow(/UNIQUE/);
    expect(store.list()).toHaveLength(1);
    db.close();
  });

  it('finds containers by label pairs and by pod, in list order, through deletes, reloads and metadata updates', () => {
    const db = MetadataDB.open(join(dir, 'meta.db'));
    const store = new ContainerStore(db);
    const labelled = (id: string, name: string, sandbox: string, labels: Record<string, string>): ContainerMetadata => ({
      ...meta(id, name),
      sandboxId: hex(sandbox),
      config: { labels } as unknown as ContainerMetadata['config'],
    });
    store.add(labelled(hex('a'), 'a', 's', { pod: 'p1', app: 'web' }), {}, created);
    store.add(labelled(hex('b'), 'b', 't', { pod: 'p2', app: 'web' }), {}, created);
    store.add(labelled(hex('c'), 'c', 's', { pod: 'p1', app: 'db' }), {}, created);
    store.add(meta(hex('d'), 'd'), {}, created); // no labels at all
    const ids = (records: { id: string }[]) => records.map((r) => r.id[0]);
    expect(ids(store.withLabels({ pod: 'p1' }))).toEqual(['a', 'c']);
    expect(ids(store.withLabels({ app: 'web', pod: 'p1' }))).toEqual(['a']);
    expect(ids(store.withLabels({ app: 'web', pod: 'p3' }))).toEqual([]);
    expect(ids(store.withLabels({}))).toEqual(['a', 'b', 'c', 'd']);
    expect(ids(store.withLabels(undefined))).toEqual(['a', 'b', 'c', 'd']);
    expect(ids(store.listBySandbox(hex('s')))).toEqual(['a', 'c', 'd']);
    store.delete(hex('a'));
    expect(ids(store.withLabels({ pod: 'p1' }))).toEqual(['c']);
    expect(ids(store.listBySandbox(hex('s')))).toEqual(['c', 'd']);
    // A metadata change that keeps a record's labels keeps its place in the label's list.
    store.add(labelled(hex('f'), 'f', 's', { pod: 'p1' }), {}, created);
    store.updateMetadata(hex('c'), (m) => ({ ...m, logPath: '/elsewhere' }));
    expect(ids(store.withLabels({ pod: 'p1' }))).toEqual(['c', 'f']);
    store.updateMetadata(hex('c'), (m) => ({ ...m, config: { labels: { pod: 'p9' } } as unknown as ContainerMetadata['config'] }));
    expect(ids(store.withLabels({ pod: 'p1' }))).toEqual(['f']);
    expect(ids(store.withLabels({ pod: 'p9' }))).toEqual(['c']);
    store.delete(hex('f'));
    // Pairs that share an index key (NUL in a label) are told apart by their labels.
    store.add(labelled(hex('e'), 'e', 't', { 'pod\0p1': 'x' }), {}, created);
    expect(ids(store.withLabels({ pod: 'p1\0x' }))).toEqual([]);
    expect(ids(store.withLabels({ 'pod\0p1': 'x' }))).toEqual(['e']);
    store.delete(hex('e'));
    db.close();
    const db2 = MetadataDB.open(join(dir, 'meta.db'));
    const reopened = new ContainerStore(db2);
    expect(ids(reopened.withLabels({ pod: 'p9' }))).toEqual([]); // nothing before load()
    reopened.load();
    expect(ids(reopened.withLabels({ app: 'web' }))).toEqual(['b']);
    expect(ids(reopened.withLabels({ pod: 'p9' }))).toEqual(['c']);
    expect(ids(reopened.listBySandbox(hex('s')))).toEqual(['c', 'd']);
    db2.close();
  });

  it('derives states from timestamps', () => {
    expect(containerState(created)).toBe('CONTAINER_CREATED');
    expect(containerState({ ...created, startedAt: '2', finishedAt: '3' })).toBe('CONTAINER_EXITED');
    expect(containerState({ ...created, unknown: true })).toBe('CONTAINER_UNKNOWN');
  });
});

describe('KeyedMutex', () => {
  it('serialises per key and lets other keys run', async () => {
    const mutex = new KeyedMutex();
    const order: string[] = [];
    let releaseFirst!: () => void;
    const first = mutex.run('a', async () => {
      order.push('a1 start');
      await new Promise<void>((r) => (releaseFirst = r));
      order.push('a1 end');
    });
    const second = mutex.run('a', async () => void order.push('a2'));
    await mutex.run('b', async () => void order.push('b'));
    releaseFirst();
    await Promise.all([first, second]);
    expect(order).toEqual(['a1 start', 'b', 'a1 end', 'a2']);
  });
});

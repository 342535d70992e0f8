// The local content store on a real filesystem: verified ingest, atomic commit, concurrency, GC.
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalContentStore } from '../../../internal/content/local';
import { sha256Digest } from '../../../internal/content/digest';
import { randomBytes } from 'node:crypto';
import { kindOf } from '../../../internal/errdefs/errors';
import { mountTmpfs, unmountTmpfs } from '../../harness/tmpfs';

async function* chunks(data: Buffer, size = 7): AsyncGenerator<Buffer> {
  for (let i = 0; i < data.length; i += size) {
    await new Promise((r) => setImmediate(r));
    yield data.subarray(i, i + size);
  }
}

describe('LocalContentStore', () => {
  let root: string;
  let store: LocalContentStore;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'berth-content-'));
    store = new LocalContentStore(root);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  const ingestFiles = () => readdirSync(join(root, 'content', 'ingest'));

  it('ingests a blob, verified, at blobs/sha256/<hex>, and reads it back', async () => {
    const data = Buffer.from('hello berth content store');
    const digest = sha256Digest(data);
    const info = await store.ingest({ digest, size: data.length }, chunks(data));
    expect(info).toMatchObject({ digest, size: data.length });
    const path = join(root, 'content', 'blobs', 'sha256', digest.slice(7));
    expect(store.blobPath(digest)).toBe(path);
    expect(statSync(path).mode & 0o777).toBe(0o444);
    expect(await store.readBytes(digest)).toEqual(data);
    const streamed: Buffer[] = [];
    for await (const c of store.readStream(digest)) streamed.push(c as Buffer);
    expect(Buffer.concat(streamed)).toEqual(data);
    expect(await store.has(digest)).toBe(true);
    expect((await store.info(digest)).size).toBe(data.length);
    const all = [];
    for await (const i of store.walk()) all.push(i.digest);
    expect(all).toEqual([digest]);
    expect(ingestFiles()).toEqual([]);
  });

  it('rejects a wrong digest naming expected and actual, and leaves nothing behind', async () => {
    const data = Buffer.from('some bytes');
    const wrong = sha256Digest('other bytes');
    const err = await store.ingest({ digest: wrong }, chunks(data)).catch((e: unknown) => e);
    expect(kindOf(err)).toBe('FailedPrecondition');
    expect((err as Error).message).toContain(`expected ${wrong}`);
    expect((err as Error).message).toContain(`actual ${sha256Digest(data)}`);
    expect(await store.has(wrong)).toBe(false);
    expect(ingestFiles()).toEqual([]);
  });

  it('rejects a size that does not match, too long or too short', async () => {
    const data = Buffer.from('0123456789');
    const digest = sha256Digest(data);
    await expect(store.ingest({ digest, size: 5 }, chunks(data))).rejects.toThrow(/size mismatch: expected 5 bytes/);
    await expect(store.ingest({ digest, size: 11 }, chunks(data))).rejects.toThrow(/expected 11 bytes, got 10/);
    expect(await store.has(digest)).toBe(false);
    expect(ingestFiles()).toEqual([]);
  });

  it('rejects malformed digests as InvalidArgument naming the string', async () => {
    await expect(store.ingest({ digest: 'md5:abc' }, chunks(Buffer.alloc(1)))).rejects.toMatchObject({
      kind: 'InvalidArgument',
      message: expect.stringContaining('md5:abc'),
    });
    expect(() => store.blobPath('sha256:XYZ')).toThrow(/sha256:XYZ/);
  });

  it('NotFound for absent content', async () => {
    const d = sha256Digest('absent');
    await expect(store.info(d)).rejects.toMatchObject({ kind: 'NotFound' });
    expect(() => store.readStream(d)).toThrow(/not found/);
    await expect(store.readBytes(d)).rejects.toMatchObject({ kind: 'NotFound' });
    await expect(store.delete(d)).rejects.toMatchObject({ kind: 'NotFound' });
  });

  it('concurrent ingests of one digest commit one blob and all succeed', async () => {
    const data = Buffer.alloc(256 * 1024, 7);
    const digest = sha256Digest(data);
    const read = [0, 0];
    async function* counted(which: number): AsyncGenerator<Buffer> {
      for await (const c of chunks(data, 4096)) {
        read[which]! += c.length;
        yield c;
      }
    }
    const [a, b, c] = await Promise.all([
      store.ingest({ digest, size: data.length }, counted(0)),
      store.ingest({ digest, size: data.length }, counted(1)),
      store.writeBytes({ digest }, data),
    ]);
    expect([a.digest, b.digest, c.digest]).toEqual([digest, digest, digest]);
    // Whichever of the three got there first wrote; the others waited for it instead of writing
    // again (which one comes first is up to the thread pool): no source was read, or one whole.
    expect(read.filter((n) => n > 0).length).toBeLessThanOrEqual(1);
    expect([0, data.length]).toContain(read[0]! + read[1]!);
    expect(await store.readBytes(digest)).toEqual(data);
    expect(ingestFiles()).toEqual([]);
  });

  it('a second ingest retries with its own source when the first one fails', async () => {
    const data = Buffer.from('the real bytes');
    const digest = sha256Digest(data);
    // The first ingest must be the one writing: its source is read only once it is registered as
    // the ingest under way, so the second starts after that (whichever `stat` ends first) and
    // either waits for it or, once it failed, writes its own.
    let reading!: () => void;
    const firstReading = new Promise<void>((r) => (reading = r));
    async function* tampered(): AsyncGenerator<Buffer> {
      reading();
      yield* chunks(Buffer.from('tampered bytes'));
    }
    const bad = store.ingest({ digest }, tampered());
    await firstReading;
    const good = store.ingest({ digest }, chunks(data));
    await expect(bad).rejects.toThrow(/digest mismatch/);
    await expect(good).resolves.toMatchObject({ digest });
    expect(await store.readBytes(digest)).toEqual(data);
    expect(ingestFiles()).toEqual([]);
  });

  it('ingestComputed stores under the digest it computes', async () => {
    const data = Buffer.from('layer.tar without a digest in its path');
    const info = await store.ingestComputed(chunks(data));
    expect(info.digest).toBe(sha256Digest(data));
    expect(await store.readBytes(info.digest)).toEqual(data);
  });

  it('sweepIngests removes stale temp files', async () => {
    writeFileSync(join(root, 'content', 'ingest', 'abc.123.dead'), 'partial');
    expect(await store.sweepIngests()).toBe(1);
    expect(ingestFiles()).toEqual([]);
  });

  it('gc removes unreferenced blobs, keeps referenced and leased ones', async () => {
    const [keep, drop, leased] = ['keep', 'drop', 'leased'].map((s) => Buffer.from(s));
    for (const d of [keep, drop, leased]) await store.writeBytes({ digest: sha256Digest(d) }, d);
    const lease = store.lease();
    lease.add(sha256Digest(leased));
    const removed = await store.gc(new Set([sha256Digest(keep)]));
    expect(removed).toEqual([sha256Digest(drop)]);
    expect(await store.has(sha256Digest(keep))).toBe(true);
    expect(await store.has(sha256Digest(leased))).toBe(true);
    lease.release();
    expect(await store.gc(async () => new Set([sha256Digest(keep)]))).toEqual([sha256Digest(leased)]);
  });

  it('gc of no candidates does not work out the references (a pull that failed before storing anything)', async () => {
    let asked = 0;
    const referenced = async () => {
      asked++;
      return new Set<string>();
    };
    expect(await store.gc(referenced, [])).toEqual([]);
    expect(await store.gc(referenced, new Set<string>())).toEqual([]);
    expect(asked).toBe(0);
    const data = Buffer.from('left by a failed pull');
    await store.writeBytes({ digest: sha256Digest(data) }, data);
    expect(await store.gc(referenced, [sha256Digest(data)])).toEqual([sha256Digest(data)]);
    expect(asked).toBe(1);
  });

  it('a lease released while gc computes its referenced set still protects its blobs', async () => {
    const data = Buffer.from('pulled meanwhile');
    const lease = store.lease();
    await store.writeBytes({ digest: sha256Digest(data) }, data, lease);
    expect([...lease.created]).toEqual([sha256Digest(data)]);
    const removed = await store.gc(async () => {
      lease.release(); // the pull records its image after gc read the records, then releases
      return new Set<string>();
    });
    expect(removed).toEqual([]);
    expect(await store.has(sha256Digest(data))).toBe(true);
  });
});

describe('LocalContentStore on a full disk', () => {
  let dir: string;
  let root: string;
  let store: LocalContentStore;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'berth-content-full-'));
    root = join(dir, 'root');
    mountTmpfs(root, '256k');
    store = new LocalContentStore(root);
  });
  afterEach(() => {
    unmountTmpfs(root);
    rmSync(dir, { recursive: true, force: true });
  });

  const left = () => ({
    ingest: readdirSync(join(root, 'content', 'ingest')),
    blobs: readdirSync(join(root, 'content', 'blobs', 'sha256')),
  });

  it('an ingest that runs out of space fails with ResourceExhausted, leaves no partial blob, and succeeds once space is freed', async () => {
    const data = randomBytes(160 * 1024);
    const digest = sha256Digest(data);
    const filler = join(root, 'filler');
    writeFileSync(filler, Buffer.alloc(128 * 1024));
    const err = await store.ingest({ digest, size: data.length }, chunks(data, 16 * 1024)).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(kindOf(err)).toBe('ResourceExhausted');
    expect(String(err)).toContain(digest);
    expect(String(err)).toMatch(/ENOSPC/);
    expect(left()).toEqual({ ingest: [], blobs: [] });
    expect(await store.has(digest)).toBe(false);

    rmSync(filler);
    await expect(store.ingest({ digest, size: data.length }, chunks(data, 16 * 1024))).resolves.toMatchObject({ digest });
    expect(await store.readBytes(digest)).toEqual(data);
    expect(left().ingest).toEqual([]);
  });

  it('ingestComputed on a full disk fails the same way and leaves nothing', async () => {
    writeFileSync(join(root, 'filler'), Buffer.alloc(200 * 1024));
    const err = await store.ingestComputed(chunks(randomBytes(100 * 1024), 16 * 1024)).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(kindOf(err)).toBe('ResourceExhausted');
    expect(left()).toEqual({ ingest: [], blobs: [] });
  });
});

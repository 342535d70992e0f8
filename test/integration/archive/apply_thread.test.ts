// Layers applied on worker threads (internal/archive/apply_thread.ts, the worker script as `make
// build` writes it): the same tree, result and errors as applyLayer in this thread; a blob that
// cannot be read, or a worker that dies, fails the job without stalling the next; idle workers end.
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { Readable } from 'node:stream';
import { applyLayer } from '../../../internal/archive';
import { LayerApplier } from '../../../internal/archive/apply_thread';
import { kindOf } from '../../../internal/errdefs/errors';
import { repoRoot } from '../../../internal/repo_root';
import { buildTar, gzip, streamOf, type TarEntry } from './tarball';

const WORKER = join(repoRoot(), 'dist', 'internal', 'archive', 'apply_worker.js');

let scratch: string;
beforeAll(() => {
  if (!existsSync(WORKER)) throw new Error(`${WORKER} is missing: run make build first`);
});
beforeEach(() => {
  scratch = mkdtempSync(join(tmpdir(), 'berth-apply-thread-'));
});
afterEach(() => rmSync(scratch, { recursive: true, force: true }));

const dirOf = (name: string): string => {
  const dir = join(scratch, name);
  mkdirSync(dir);
  return dir;
};

/** Every path under `root` with its type, mode, owner, size, and for files and symlinks their time and content. */
function treeOf(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      const st = lstatSync(path);
      // Directories the layer only implies, and whiteouts, are made with the current time.
      const body = st.isFile() ? createHash('sha256').update(readFileSync(path)).digest('hex') : st.isSymbolicLink() ? readlinkSync(path) : undefined;
      const made = body === undefined ? '' : `${st.mtimeMs} ${body}`;
      out.push(`${relative(root, path)} ${st.mode.toString(8)} ${st.uid}:${st.gid} ${st.size} ${made}`);
      if (st.isDirectory()) walk(path);
    }
  };
  walk(root);
  return out;
}

const layer: TarEntry[] = [
  { name: 'etc/', type: 'directory', mode: 0o750, uid: 10, gid: 20 },
  { name: 'etc/motd', data: 'hello\n', mode: 0o640, uid: 1000, gid: 1001 },
  { name: 'bin/sh', type: 'symlink', linkname: '/bin/busybox' },
  { name: 'bin/su', data: '#!su', mode: 0o4755 },
  { name: 'bin/su-link', type: 'link', linkname: 'bin/su' },
  { name: 'usr/share/big', data: 'x'.repeat(3 << 20) },
  { name: 'usr/.wh.gone', data: '' },
];

let applier: LayerApplier;
afterEach(async () => {
  // Ends the test's workers: an idle one would outlive the test by its idle time.
  await waitFor(() => applier.workers === 0);
});

async function waitFor(done: () => boolean): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!done()) {
    if (Date.now() > deadline) throw new Error('gave up waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('LayerApplier on worker threads', () => {
  it('writes the same tree and returns the same result as applyLayer in this thread', async () => {
    applier = new LayerApplier(WORKER, 3, 10);
    const blob = gzip(await buildTar(layer));
    const here = await applyLayer(dirOf('here'), streamOf(blob, 4096));
    const there = await applier.apply(dirOf('there'), streamOf(blob, 4096));
    expect(there).toEqual(here);
    expect(there.compression).toBe('gzip');
    expect(treeOf(join(scratch, 'there'))).toEqual(treeOf(join(scratch, 'here')));
    expect(lstatSync(join(scratch, 'there', 'usr/share/big')).size).toBe(3 << 20);
  });

  it('refuses a hostile layer with the same kind and message, writing nothing outside', async () => {
    applier = new LayerApplier(WORKER, 3, 10);
    writeFileSync(join(scratch, 'outside'), 'precious');
    const tarball = await buildTar([{ name: 'up', type: 'symlink', linkname: '..' }, { name: 'evil', type: 'link', linkname: 'up/outside' }]);
    const target = dirOf('root');
    // "remove" mode (applied on the parents): a hard-link target found nowhere is refused there.
    const here = await applyLayer(target, streamOf(tarball), { whiteouts: 'remove' }).catch((e: unknown) => e);
    rmSync(target, { recursive: true });
    mkdirSync(target);
    const there = await applier.apply(target, streamOf(tarball), { whiteouts: 'remove' }).catch((e: unknown) => e);
    expect(kindOf(there)).toBe('InvalidArgument');
    expect(String(there)).toContain('"evil"');
    expect((there as Error).message).toBe((here as Error).message);
    expect(readFileSync(join(scratch, 'outside'), 'utf8')).toBe('precious');
    expect(lstatSync(join(scratch, 'outside')).nlink).toBe(1);
  });

  it('fails a job whose blob breaks, and its worker takes the next job', async () => {
    applier = new LayerApplier(WORKER, 1, 10);
    const blob = await buildTar(layer);
    const broken = Readable.from(
      (async function* () {
        yield blob.subarray(0, 64 << 10);
        throw new Error('disk went away');
      })(),
    );
    await expect(applier.apply(dirOf('broken'), broken)).rejects.toThrow('disk went away');
    const result = await applier.apply(dirOf('next'), streamOf(blob, 65536));
    expect(result.size).toBe(blob.length);
    expect(readFileSync(join(scratch, 'next', 'etc/motd'), 'utf8')).toBe('hello\n');
  });

  it('fails the job of a worker that dies or throws, and starts another for the next job', async () => {
    // The real worker, but one that exits when given a target named "die" and throws for "throw".
    const dying = join(scratch, 'dying_worker.js');
    writeFileSync(
      dying,
      `const { parentPort } = require('node:worker_threads');
parentPort.on('message', (m) => {
  if (m.type === 'job' && m.target.endsWith('die')) process.exit(3);
  if (m.type === 'job' && m.target.endsWith('throw')) throw new Error('boom');
});
require(${JSON.stringify(WORKER)});\n`,
    );
    applier = new LayerApplier(dying, 1, 10);
    const blob = await buildTar(layer);
    await expect(applier.apply(dirOf('die'), streamOf(blob, 65536))).rejects.toThrow(/exited \(code 3\)/);
    const result = await applier.apply(dirOf('live'), streamOf(blob, 65536));
    expect(result.size).toBe(blob.length);
    await expect(applier.apply(dirOf('throw'), streamOf(blob, 65536))).rejects.toThrow(/failed \(.*boom\)/);
    expect((await applier.apply(dirOf('again'), streamOf(blob, 65536))).size).toBe(blob.length);
  });

  it('gives a job waiting for a worker the first one free, and ends idle workers', async () => {
    applier = new LayerApplier(WORKER, 1, 10);
    const blob = await buildTar(layer);
    const results = await Promise.all(['a', 'b', 'c'].map((name) => applier.apply(dirOf(name), streamOf(blob, 65536))));
    expect(results.map((r) => r.size)).toEqual([blob.length, blob.length, blob.length]);
    expect(applier.workers).toBeLessThanOrEqual(1);
    await waitFor(() => applier.workers === 0);
  });
});

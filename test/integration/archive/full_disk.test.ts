// A layer that does not fit: applyLayer fails with ResourceExhausted naming the entry and ENOSPC,
// whether the blocks ran out (a file's data) or the inodes did (directories, files). A small tmpfs
// of the test's own stands in for the snapshot's disk.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { applyLayer } from '../../../internal/archive';
import { kindOf } from '../../../internal/errdefs/errors';
import { mountTmpfs, unmountTmpfs } from '../../harness/tmpfs';
import { buildTar, streamOf, type TarEntry } from './tarball';

let scratch: string;
let target: string;
beforeEach(() => {
  scratch = mkdtempSync(join(tmpdir(), 'berth-archive-full-'));
  target = join(scratch, 'root');
  mountTmpfs(target, '1m,nr_inodes=64');
});
afterEach(() => {
  unmountTmpfs(target);
  rmSync(scratch, { recursive: true, force: true });
});

describe('applyLayer on a full disk', () => {
  it.each([
    ['the data of a file', [{ name: 'big', data: Buffer.alloc(2 << 20, 1) }], 'big'],
    ['directories', Array.from({ length: 100 }, (_, i): TarEntry => ({ name: `d${i}/`, type: 'directory' })), 'd'],
    ['implied parents', Array.from({ length: 100 }, (_, i): TarEntry => ({ name: `p${i}/f`, data: '' })), 'p'],
  ])('answers ResourceExhausted when %s no longer fit', async (_what, entries, culprit) => {
    const err = await applyLayer(target, streamOf(await buildTar(entries as TarEntry[]))).catch((e: unknown) => e);
    expect(kindOf(err)).toBe('ResourceExhausted');
    expect(String(err)).toMatch(new RegExp(`layer entry "${culprit}[^"]*": ENOSPC`));
  });
});

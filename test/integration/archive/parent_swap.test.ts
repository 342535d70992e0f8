// A layer that replaces a directory by a symlink after writing below it: nothing apply remembered
// about the replaced paths (implied parents, deferred directory times) may reach through the
// symlink. The victim is a directory outside the target; it must come out untouched (ctime
// included, so not even a chown to the same owner happened), and the tree must be containerd's.
import { lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { applyLayer } from '../../../internal/archive';
import { describeTree, makeVictim, parentSwaps, T_LINK, victimState } from '../../harness/hostile_layers';
import { buildTar, streamOf } from './tarball';

let scratch: string;
let target: string;
let victim: string;
beforeEach(() => {
  scratch = mkdtempSync(join(tmpdir(), 'berth-swap-'));
  target = join(scratch, 'root');
  mkdirSync(target);
  victim = makeVictim(scratch);
});
afterEach(() => rmSync(scratch, { recursive: true, force: true }));

describe.each(['overlay', 'remove'] as const)('applyLayer (%s whiteouts) of a layer that replaces a parent by a symlink', (whiteouts) => {
  // The scenarios need the victim's path, known only once a test runs: named here, built there.
  it.each(parentSwaps('<victim>').map((s, i) => [s.what, i] as const))('%s', async (_what, i) => {
    const swap = parentSwaps(victim)[i]!;
    const before = victimState(victim);
    const result = await applyLayer(target, streamOf(await buildTar(swap.entries)), { whiteouts });
    expect(victimState(victim)).toEqual(before);
    expect(describeTree(target)).toEqual(swap.alone);
    // The replaced directories are gone, so they are not implied parents any more.
    expect(result.impliedDirs).toEqual(swap.implied);
    // The symlink keeps its own times, not those of the directory it replaced.
    expect(lstatSync(join(target, swap.link)).mtimeMs).toBe(T_LINK.getTime());
    expect(readFileSync(join(victim, 'x/secret'), 'utf8')).toBe('precious');
  });
});

describe('applyLayer after a parent was replaced', () => {
  it('writes through the new symlink, not into the directory it replaced (the cached parent is dropped)', async () => {
    await applyLayer(target, streamOf(await buildTar([
      { name: 'x/', type: 'directory' },
      { name: 'y/', type: 'directory' },
      { name: 'l', type: 'symlink', linkname: 'x' },
      { name: 'l/one', data: '1' },
      { name: 'l', type: 'symlink', linkname: 'y' },
      { name: 'l/two', data: '2' },
      { name: 'd/', type: 'directory' },
      { name: 'd/old', data: 'o' },
      { name: 'd', data: 'now a file' },
      { name: 'd/', type: 'directory', mode: 0o700 },
      { name: 'd/new', data: 'n' },
    ])));
    expect(describeTree(target)).toEqual([
      '/ dir 755 0:0',
      'd dir 700 0:0',
      'd/new file 644 0:0 1B',
      'l symlink 0:0 ->y',
      'x dir 755 0:0',
      'x/one file 644 0:0 1B',
      'y dir 755 0:0',
      'y/two file 644 0:0 1B',
    ]);
  });
});

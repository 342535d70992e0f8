// What layer apply remembers until a layer's end is bounded: a layer that needs more gets a clean
// InvalidArgument instead of growing the daemon's memory. The bound is lowered here so that the
// tests need hundreds of entries, not millions; what counts toward it is what a real layer has
// few of (directories, implied parents) plus, in "remove" mode only, every path written.
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { applyLayer } from '../../../internal/archive';
import { kindOf } from '../../../internal/errdefs/errors';
import { buildTar, streamOf, type TarEntry } from './tarball';

let scratch: string;
let target: string;
beforeEach(() => {
  scratch = mkdtempSync(join(tmpdir(), 'berth-bounds-'));
  target = join(scratch, 'root');
  mkdirSync(target);
});
afterEach(() => rmSync(scratch, { recursive: true, force: true }));

const MAX = 64;
const many = <T,>(n: number, entry: (i: number) => T): T[] => Array.from({ length: n }, (_, i) => entry(i));

describe('applyLayer bounds what it remembers per layer', () => {
  it('refuses a layer with more directories than the bound, naming the entry that crossed it', async () => {
    const tarball = await buildTar(many(MAX + 1, (i) => ({ name: `d${i}/`, type: 'directory' })));
    const err = await applyLayer(target, streamOf(tarball), { maxRememberedPaths: MAX }).catch((e: unknown) => e);
    expect(kindOf(err)).toBe('InvalidArgument');
    expect(String(err)).toContain(`layer entry "d${MAX}/"`);
    expect(String(err)).toContain(`more than ${MAX} paths`);
    expect(readdirSync(scratch)).toEqual(['root']);
  });

  it('counts implied parents too', async () => {
    const tarball = await buildTar(many(MAX + 1, (i) => ({ name: `p${i}/f`, data: 'f' })));
    const err = await applyLayer(target, streamOf(tarball), { maxRememberedPaths: MAX }).catch((e: unknown) => e);
    expect(kindOf(err)).toBe('InvalidArgument');
    expect(String(err)).toContain(`layer entry "p${MAX}/f"`);
  });

  it('remembers no regular file in "overlay" mode, every written path in "remove" mode', async () => {
    const files = [{ name: 'dir/', type: 'directory' } as TarEntry, ...many(4 * MAX, (i) => ({ name: `dir/f${i}`, data: 'x' }))];
    const result = await applyLayer(target, streamOf(await buildTar(files)), { maxRememberedPaths: MAX });
    expect(result.impliedDirs).toEqual(['']);
    expect(readdirSync(join(target, 'dir'))).toHaveLength(4 * MAX);
    const err = await applyLayer(join(scratch, 'root'), streamOf(await buildTar(files)), { maxRememberedPaths: MAX, whiteouts: 'remove' }).catch((e: unknown) => e);
    expect(kindOf(err)).toBe('InvalidArgument');
    expect(String(err)).toContain(`more than ${MAX} paths`);
  });

  it('gives back what it forgot: directories replaced over and over stay within the bound', async () => {
    const churn = many(4 * MAX, (i) => (i % 2 === 0 ? { name: 'd/', type: 'directory' } : { name: 'd', data: 'now a file' }) as TarEntry);
    const nested = many(4 * MAX, (i): TarEntry[] => [
      { name: 'n/', type: 'directory' },
      { name: `n/sub${i}/`, type: 'directory' },
      { name: 'n', data: 'a file again' },
    ]).flat();
    await applyLayer(target, streamOf(await buildTar([...churn, ...nested])), { maxRememberedPaths: MAX });
    expect(readdirSync(target).sort()).toEqual(['d', 'n']);
  });

  it('closes every directory it opened, whether the layer applies or is refused', async () => {
    const openFds = (): number => readdirSync('/proc/self/fd').length;
    const dirs = many(3 * MAX, (i): TarEntry[] => [{ name: `t${i % 7}/d${i}/`, type: 'directory' }, { name: `t${i % 7}/d${i}/f`, data: 'f' }]).flat();
    // A whiteout under a missing directory, once z1/z2/z3 left the cache: the walk opens three.
    const whiteout: TarEntry[] = [{ name: 'z1/z2/z3/', type: 'directory' }, ...dirs, { name: 'z1/z2/z3/missing/.wh.x', data: '' }];
    const good = await buildTar(whiteout);
    // Refused after its walk opened a/ and a/b/: a file where a directory should be.
    const bad = await buildTar([...dirs, { name: 'a/b/f', data: 'f' }, { name: 'a/b/f/x/evil', data: 'x' }]);
    const before = openFds();
    await applyLayer(target, streamOf(good));
    mkdirSync(join(scratch, 'other'));
    await applyLayer(join(scratch, 'other'), streamOf(good), { whiteouts: 'remove' });
    expect(kindOf(await applyLayer(target, streamOf(bad), { whiteouts: 'remove' }).catch((e: unknown) => e))).toBe('InvalidArgument');
    expect(kindOf(await applyLayer(target, streamOf(good), { maxRememberedPaths: MAX }).catch((e: unknown) => e))).toBe('InvalidArgument');
    expect(openFds()).toBe(before);
  });
});

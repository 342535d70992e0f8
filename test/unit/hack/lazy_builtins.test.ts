// The bundle's lazy built-ins (hack/bundle/lazy_builtins.ts): a module bundled with the plugin loads
// zlib only when something first reads from it, whichever way it was imported (a named import, a
// namespace import, a CommonJS require as grpc-js does), and then works as zlib itself.
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lazyBuiltins } from '../../../hack/bundle/lazy_builtins';

const ENTRY = `
import { gzipSync } from 'node:zlib';
import * as zlib from 'node:zlib';
const required = require('zlib');
const loaded = () => process.moduleLoadList.includes('NativeModule zlib');
const atStart = loaded();
const packed = gzipSync(Buffer.from('berth'));
const afterUse = loaded();
process.stdout.write(JSON.stringify({
  atStart,
  afterUse,
  unpacked: zlib.gunzipSync(packed).toString(),
  viaRequire: required.inflateSync(required.deflateSync(Buffer.from('cjs'))).toString(),
  constant: zlib.constants.Z_SYNC_FLUSH,
  names: Object.keys(zlib).includes('createGunzip'),
}));
`;

describe('lazy built-ins in the bundle', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'berth-lazy-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  async function run(plugins: Parameters<typeof build>[0]['plugins']): Promise<Record<string, unknown>> {
    writeFileSync(join(dir, 'entry.ts'), ENTRY);
    const outfile = join(dir, `out-${plugins?.length ?? 0}.js`);
    await build({ entryPoints: [join(dir, 'entry.ts')], bundle: true, platform: 'node', format: 'cjs', outfile, plugins, logLevel: 'silent' });
    const child = spawnSync(process.execPath, [outfile], { encoding: 'utf8' });
    if (child.status !== 0) throw new Error(child.stderr);
    return JSON.parse(child.stdout) as Record<string, unknown>;
  }

  it('load zlib at its first use only, then answer as zlib', async () => {
    expect(await run([lazyBuiltins(['zlib'])])).toEqual({ atStart: false, afterUse: true, unpacked: 'berth', viaRequire: 'cjs', constant: 2, names: true });
  });

  it('without the plugin zlib loads with the bundle (the control)', async () => {
    expect(await run([])).toMatchObject({ atStart: true, unpacked: 'berth' });
  });
});

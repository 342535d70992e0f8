// bin/berthd's heap-sizing flag goes back to its default once V8 has sized the heap
// (cmd/berthd/heap_flags.ts): V8 then takes code caches made under the default flags (as Node's
// own modules' are) while the young generation keeps the size the flag gave it.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../../../internal/repo_root';

const HEAP_FLAGS_JS = join(repoRoot(), 'dist', 'cmd', 'berthd', 'heap_flags.js');
const SOURCE = 'function answer() { return [1, 2, 3].map((n) => n * 14); } answer();';

interface Seen {
  reset: string[];
  /** Whether V8 took the cache made under the default flags. */
  accepted: boolean;
  /** The young generation's size after allocating ~100 MB of short-lived objects. */
  newSpaceMiB: number;
}

function run(dir: string, nodeFlags: string[], resetFlags: boolean): Seen {
  const script = `
    const { Script } = require('node:vm'); const fs = require('node:fs'); const v8 = require('node:v8');
    const reset = ${resetFlags} ? require(${JSON.stringify(HEAP_FLAGS_JS)}).heapSizeFlagsToDefaults() : [];
    const s = new Script(${JSON.stringify(SOURCE)}, { filename: 'answer.js', cachedData: fs.readFileSync(${JSON.stringify(join(dir, 'answer.cache'))}) });
    let keep = []; for (let i = 0; i < 3e6; i++) { keep.push({ i, s: 'x' + i }); if (keep.length > 20000) keep = []; }
    const ns = v8.getHeapSpaceStatistics().find((space) => space.space_name === 'new_space');
    process.stdout.write(JSON.stringify({ reset, accepted: !s.cachedDataRejected, newSpaceMiB: ns.space_size / 1048576 }));`;
  const child = spawnSync(process.execPath, [...nodeFlags, '-e', script], { encoding: 'utf8' });
  if (child.status !== 0) throw new Error(child.stderr);
  return JSON.parse(child.stdout) as Seen;
}

describe('heap-sizing flags back to their defaults', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'berth-heap-flags-'));
    // A code cache made under the default flags, as Node's built-in modules carry theirs.
    const made = spawnSync(
      process.execPath,
      ['-e', `require('node:fs').writeFileSync(${JSON.stringify(join(dir, 'answer.cache'))}, new (require('node:vm').Script)(${JSON.stringify(SOURCE)}, { filename: 'answer.js' }).createCachedData())`],
      { encoding: 'utf8' },
    );
    if (made.status !== 0) throw new Error(made.stderr);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("under bin/berthd's flag: V8 takes default-flag caches again, and the young generation keeps the flag's size", () => {
    const seen = run(dir, ['--max-semi-space-size=1'], true);
    expect(seen.reset).toEqual(['--max-semi-space-size']);
    expect(seen.accepted).toBe(true);
    expect(seen.newSpaceMiB).toBeLessThanOrEqual(2);
  });

  it('the flag spelled with underscores, as V8 also takes it, is reset too', () => {
    expect(run(dir, ['--max_semi_space_size=1'], true)).toMatchObject({ reset: ['--max-semi-space-size'], accepted: true });
  });

  it('the flag left as given: V8 refuses those caches (what the reset is for)', () => {
    expect(run(dir, ['--max-semi-space-size=1'], false)).toMatchObject({ accepted: false, newSpaceMiB: expect.any(Number) });
  });

  it('no flag: nothing to reset, and the same allocations grow the young generation past that size', () => {
    const seen = run(dir, [], true);
    expect(seen.reset).toEqual([]);
    expect(seen.accepted).toBe(true);
    expect(seen.newSpaceMiB).toBeGreaterThan(2);
  });
});

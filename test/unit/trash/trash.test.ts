import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DELETE_AFTER_MS, Trash } from '../../../internal/trash/trash';
import { silentLogger } from '../../../internal/log/logger';

describe('Trash', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'berth-trash-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('frees the path at once and deletes the tree in the background', async () => {
    const victim = join(dir, 'c1');
    mkdirSync(join(victim, 'a', 'b'), { recursive: true });
    writeFileSync(join(victim, 'a', 'b', 'f'), 'x');
    const trash = new Trash(join(dir, 'trash'), silentLogger);
    trash.discard(victim);
    expect(existsSync(victim)).toBe(false);
    // Not yet deleted: that starts after the caller has answered (DELETE_AFTER_MS).
    expect(readdirSync(join(dir, 'trash'))).toEqual([expect.stringMatching(/^c1-[0-9a-f]{8}$/)]);
    await trash.drain();
    expect(readdirSync(join(dir, 'trash'))).toEqual([]);
  });

  it('deletes on its own, without drain()', async () => {
    const victim = join(dir, 'c2');
    mkdirSync(join(victim, 'd'), { recursive: true });
    const trash = new Trash(join(dir, 'trash'), silentLogger);
    trash.discard(victim);
    while (readdirSync(join(dir, 'trash')).length > 0) await new Promise((resolve) => setTimeout(resolve, DELETE_AFTER_MS));
    expect(existsSync(victim)).toBe(false);
  });

  it('ignores a missing path, and empty() clears what a killed process left', async () => {
    const trash = new Trash(join(dir, 'trash'), silentLogger);
    trash.discard(join(dir, 'nope'));
    mkdirSync(join(dir, 'trash', 'left-behind'), { recursive: true });
    await trash.empty();
    expect(existsSync(join(dir, 'trash'))).toBe(false);
  });
});

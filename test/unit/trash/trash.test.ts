import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Trash } from '../../../internal/trash/trash';
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
    await trash.drain();
    expect(readdirSync(join(dir, 'trash'))).toEqual([]);
  });

  it('ignores a missing path, and empty() clears what a killed process left', async () => {
    const trash = new Trash(join(dir, 'trash'), silentLogger);
    trash.discard(join(dir, 'nope'));
    mkdirSync(join(dir, 'trash', 'left-behind'), { recursive: true });
    await trash.empty();
    expect(existsSync(join(dir, 'trash'))).toBe(false);
  });
});

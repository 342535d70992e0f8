import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DELETE_AFTER_MS, Trash } from '../../../internal/trash/trash';
import { createLogger, silentLogger } from '../../../internal/log/logger';
import { mount, MS_BIND, MNT_DETACH, umount2 } from '../../../internal/sys/fs';
import { buildDeepTree } from '../../harness/deep_tree';

describe('Trash', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'berth-trash-'))));
  // rm(1) removes trees deeper than PATH_MAX, should a test fail with one left.
  afterEach(() => execFileSync('rm', ['-rf', dir]));

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
    trash.empty();
    await trash.drain();
    expect(readdirSync(join(dir, 'trash'))).toEqual([]);
    // Nothing there at all is fine too.
    execFileSync('rm', ['-rf', join(dir, 'trash')]);
    trash.empty();
    await trash.drain();
  });

  it('empty() returns before what it deletes is gone: the start serves meanwhile', async () => {
    const trash = new Trash(join(dir, 'trash'), silentLogger);
    mkdirSync(join(dir, 'trash', 'left-behind', 'sub'), { recursive: true });
    writeFileSync(join(dir, 'trash', 'left-behind', 'sub', 'f'), 'x');
    trash.empty();
    expect(existsSync(join(dir, 'trash', 'left-behind'))).toBe(true);
    await trash.drain();
    expect(readdirSync(join(dir, 'trash'))).toEqual([]);
  });

  it('deletes a tree deeper than PATH_MAX, discarded or left behind, and logs nothing', async () => {
    const lines: string[] = [];
    const trash = new Trash(join(dir, 'trash'), createLogger({ level: 'warn', write: (line) => lines.push(line) }));
    const victim = join(dir, 'upper');
    buildDeepTree(victim);
    trash.discard(victim);
    await trash.drain();
    expect(readdirSync(join(dir, 'trash'))).toEqual([]);

    buildDeepTree(join(dir, 'trash', 'left-behind'));
    trash.empty();
    await trash.drain();
    expect(readdirSync(join(dir, 'trash'))).toEqual([]);
    expect(lines).toEqual([]);
  });

  it('empty() logs what it cannot delete and leaves it', async () => {
    const lines: string[] = [];
    const trash = new Trash(join(dir, 'trash'), createLogger({ level: 'warn', write: (line) => lines.push(line) }));
    // A mount point cannot be removed (EBUSY), as a file a privileged container made immutable cannot.
    const busy = join(dir, 'trash', 'left-behind', 'busy');
    mkdirSync(busy, { recursive: true });
    mount(busy, busy, '', MS_BIND);
    try {
      trash.empty();
      await trash.drain();
      expect(existsSync(busy)).toBe(true);
    } finally {
      umount2(busy, MNT_DETACH);
    }
    expect(lines.map((line) => JSON.parse(line) as { msg: string; path: string })).toEqual([
      expect.objectContaining({ msg: 'deleting from the trash failed', path: join(dir, 'trash', 'left-behind') }),
    ]);
  });
});

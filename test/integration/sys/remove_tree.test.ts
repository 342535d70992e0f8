// removeTree (internal/fs/remove_tree.ts, the addon's removeTree on libuv's thread pool): any depth,
// never following a symlink, and in steps that each go to the back of the pool's queue, so that a
// container's million files neither hold berthd's thread nor the fs calls and database fsyncs
// waiting on the pool behind them.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../../../internal/api/cri';
import { removeTree } from '../../../internal/fs/remove_tree';
import { buildDeepTree } from '../../harness/deep_tree';

/** `count` empty files in `dir`, made by touch(1) in batches (Node would take a turn for each). */
function manyFiles(dir: string, count: number): void {
  mkdirSync(dir, { recursive: true });
  execFileSync('sh', ['-c', `cd "$1" && seq 1 ${count} | xargs touch`, 'sh', dir]);
}

describe('removeTree', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'berth-rmtree-'))));
  afterEach(() => execFileSync('rm', ['-rf', dir]));

  it('removes a tree deeper than PATH_MAX with files at every turn, and leaves what its symlinks point at', async () => {
    const tree = join(dir, 'tree');
    buildDeepTree(join(tree, 'deep'));
    manyFiles(join(tree, 'wide'), 3000);
    const victim = join(dir, 'victim');
    mkdirSync(victim);
    writeFileSync(join(victim, 'file'), 'precious');
    symlinkSync(victim, join(tree, 'wide', 'escape-dir'));
    symlinkSync(join(victim, 'file'), join(tree, 'escape-file'));
    writeFileSync(join(tree, 'top-file'), 'x');
    await removeTree(tree);
    expect(readdirSync(dir)).toEqual(['victim']);
    expect(readFileSync(join(victim, 'file'), 'utf8')).toBe('precious');
  });

  it('removes a file, a symlink (not its target) or nothing at the path', async () => {
    writeFileSync(join(dir, 'f'), 'x');
    mkdirSync(join(dir, 'target'));
    symlinkSync(join(dir, 'target'), join(dir, 'link'));
    await removeTree(join(dir, 'f'));
    await removeTree(join(dir, 'link'));
    await removeTree(join(dir, 'missing'));
    await removeTree(join(dir, 'missing-parent', 'x'));
    expect(readdirSync(dir)).toEqual(['target']);
  });

  it('rejects with the errno of what it could not remove, and a later call finishes the job', async () => {
    const tree = join(dir, 'tree');
    manyFiles(join(tree, 'a'), 10);
    // A mountpoint inside the tree cannot be removed (EBUSY): a bind mount of a directory of ours.
    mkdirSync(join(tree, 'mnt'));
    const source = join(dir, 'source');
    mkdirSync(source);
    writeFileSync(join(source, 'kept'), 'kept');
    execFileSync('mount', ['--bind', source, join(tree, 'mnt')]);
    try {
      await expect(removeTree(tree)).rejects.toMatchObject({ code: 'EBUSY' });
    } finally {
      execFileSync('umount', [join(tree, 'mnt')]);
    }
    expect(readFileSync(join(source, 'kept'), 'utf8')).toBe('kept');
    await removeTree(tree);
    expect(existsSync(tree)).toBe(false);
  });

  it('lets work queued on the pool behind it run before a large tree is gone', () => {
    // One pool thread, so the order is the queue's: a removal in one job would finish first.
    const script = `
      const { removeTree } = require(${JSON.stringify(join(repoRoot(), 'dist', 'internal', 'fs', 'remove_tree.js'))});
      const { stat } = require('node:fs/promises');
      const order = [];
      Promise.all([
        removeTree(process.argv[1]).then(() => order.push('removed')),
        // Each stat queued when the one before it is done, so at least one waits behind the walk.
        stat(process.argv[2]).then(() => stat(process.argv[2])).then(() => stat(process.argv[2])).then(() => order.push('stat')),
      ]).then(() => console.log(order.join(',')));
    `;
    manyFiles(join(dir, 'big'), 20_000);
    // The compiled module (make test builds dist/ first): the child runs plain Node.
    const run = spawnSync(process.execPath, ['-e', script, join(dir, 'big'), dir], {
      env: { ...process.env, UV_THREADPOOL_SIZE: '1' },
      encoding: 'utf8',
    });
    expect(run.stderr).toBe('');
    expect(run.stdout.trim()).toBe('stat,removed');
    expect(existsSync(join(dir, 'big'))).toBe(false);
  });
});

// The root lock (cmd/berthd/root_lock.ts): an flock on <root>/berthd.lock that a second taker is
// refused while its holder lives, whatever the file says, and that a holder's death ends.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../../../internal/api/cri';
import { messageOf } from '../../../internal/errdefs/errors';
import { errnoCode } from '../../../internal/sys/fs';
import { acquireRootLock, ROOT_LOCK_FILE } from '../../../cmd/berthd/root_lock';
import { flockHolders } from '../../harness/file_locks';
import { thrownBy } from '../../harness/thrown';
import { fillUp, mountTmpfs, unmountTmpfs } from '../../harness/tmpfs';

let root: string;
const children: ChildProcess[] = [];
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'berth-rootlock-'));
});
afterEach(async () => {
  for (const child of children.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await once(child, 'exit');
    }
  }
  rmSync(root, { recursive: true, force: true });
});

const lockFile = (dir = root) => join(dir, ROOT_LOCK_FILE);

/** A node process that takes the lock on `dir` (berthd's own code, from dist) and holds it until killed. */
async function holderProcess(dir: string): Promise<ChildProcess> {
  const lockModule = join(repoRoot(), 'dist', 'cmd', 'berthd', 'root_lock.js');
  const script = `require(${JSON.stringify(lockModule)}).acquireRootLock(process.argv[1]); process.stdout.write('locked\\n'); setInterval(() => {}, 1 << 30);`;
  const child = spawn(process.execPath, ['-e', script, dir], { stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  // Its exit first (dist not built, the lock refused) fails here, not at the test's timeout.
  const first = await Promise.race([once(child.stdout!, 'data').then(([data]) => String(data)), once(child, 'exit').then(([code]) => `exited ${code}`)]);
  expect(first).toBe('locked\n');
  return child;
}

describe('root lock', () => {
  it('is an flock held for the taker, naming its PID, and refused to a second taker until released', () => {
    const release = acquireRootLock(root);
    expect(flockHolders(lockFile())).toEqual([process.pid]);
    expect(readFileSync(lockFile(), 'latin1')).toBe(`${process.pid}\n`);
    // Another open file of the same process is another taker, as a second berthd would be.
    const refused = thrownBy(() => acquireRootLock(root));
    expect(messageOf(refused)).toBe(`root ${root} is in use by berthd pid ${process.pid} (${lockFile()})`);
    expect(flockHolders(lockFile())).toEqual([process.pid]);
    release();
    expect(flockHolders(lockFile())).toEqual([]);
    acquireRootLock(root)();
  });

  it("refuses while another process holds it, and is free once that process is killed, its file left naming it", async () => {
    const holder = await holderProcess(root);
    expect(flockHolders(lockFile())).toEqual([holder.pid]);
    expect(messageOf(thrownBy(() => acquireRootLock(root)))).toBe(`root ${root} is in use by berthd pid ${holder.pid} (${lockFile()})`);
    holder.kill('SIGKILL');
    await once(holder, 'exit');
    expect(readFileSync(lockFile(), 'latin1')).toBe(`${holder.pid}\n`);
    expect(flockHolders(lockFile())).toEqual([]);
    const release = acquireRootLock(root);
    expect(flockHolders(lockFile())).toEqual([process.pid]);
    expect(readFileSync(lockFile(), 'latin1')).toBe(`${process.pid}\n`);
    release();
  });

  it('is not held by a live berthd whose PID a stale file names (a PID reused), when that berthd does not hold it', async () => {
    // A process whose command line says berthd, as a berthd on another root, alive and holding nothing here.
    const other = spawn('sleep', ['1000'], { argv0: 'berthd', stdio: 'ignore' });
    children.push(other);
    await once(other, 'spawn');
    expect(readFileSync(`/proc/${other.pid}/cmdline`, 'latin1')).toBe('berthd\u00001000\u0000');
    writeFileSync(lockFile(), `${other.pid}\n`);
    const release = acquireRootLock(root);
    expect(flockHolders(lockFile())).toEqual([process.pid]);
    expect(readFileSync(lockFile(), 'latin1')).toBe(`${process.pid}\n`);
    release();
  });

  it('never follows a symlink in place of the lock file', () => {
    const target = join(root, 'elsewhere');
    writeFileSync(target, 'not a lock\n');
    symlinkSync(target, lockFile());
    expect(errnoCode(thrownBy(() => acquireRootLock(root)))).toBe('ELOOP');
    expect(readFileSync(target, 'latin1')).toBe('not a lock\n');
    expect(flockHolders(target)).toEqual([]);
  });

  it('is taken on a full disk, where the PID cannot be written, and a second taker is told it is in use', () => {
    const full = join(root, 'full');
    mountTmpfs(full, '64k');
    try {
      fillUp(full);
      const release = acquireRootLock(full);
      expect(flockHolders(lockFile(full))).toEqual([process.pid]);
      expect(readFileSync(lockFile(full), 'latin1')).toBe('');
      expect(messageOf(thrownBy(() => acquireRootLock(full)))).toBe(`root ${full} is in use by another berthd (${lockFile(full)})`);
      release();
      expect(flockHolders(lockFile(full))).toEqual([]);
    } finally {
      unmountTmpfs(full);
    }
  });
});

// One build at a time per output directory, across processes: jest workers that all ask for the
// test images wait for the first to finish instead of building the same 58 MB in parallel.
// The lock is a directory holding its owner's PID, created whole by an atomic rename; a lock whose
// owner died (killed build) is broken and taken over.
import { mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { deadlineExceeded } from '../../internal/errdefs/errors';

export const LOCK_DIR_NAME = '.build.lock';
const POLL_MS = 200;

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function ownerOf(lockDir: string): Promise<number | undefined> {
  const text = await readFile(join(lockDir, 'pid'), 'utf8').catch(() => undefined);
  const pid = text === undefined ? NaN : Number.parseInt(text, 10);
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

/**
 * Removes the lock directory by moving it aside first: removed in place, it is emptied before the
 * rmdir, and a waiter's rename may replace an empty directory, so the rmdir would meet (ENOTEMPTY)
 * or remove that waiter's new lock. Rejects when the lock is no longer there to move.
 */
async function removeLock(lockDir: string, why: 'released' | 'stale'): Promise<void> {
  const aside = `${lockDir}-${why}-${process.pid}-${Date.now()}`;
  await rename(lockDir, aside);
  await rm(aside, { recursive: true, force: true });
}

/** Takes the lock on `dir`, waiting up to `timeoutMs`; resolves to its release function. */
export async function acquireBuildLock(dir: string, timeoutMs = 15 * 60_000): Promise<() => Promise<void>> {
  const lockDir = join(dir, LOCK_DIR_NAME);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const candidate = await mkdtemp(join(dir, '.build.lock-new-'));
    try {
      await writeFile(join(candidate, 'pid'), String(process.pid));
      await rename(candidate, lockDir); // fails while another lock directory (with its pid file) exists
      return () => removeLock(lockDir, 'released');
    } catch (err) {
      await rm(candidate, { recursive: true, force: true });
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'ENOTEMPTY' && code !== 'EEXIST') throw err;
    }
    const owner = await ownerOf(lockDir);
    if (owner === undefined || !isAlive(owner)) {
      // Two waiters may break the same stale lock: the second finds it gone and tries again.
      await removeLock(lockDir, 'stale').catch(() => undefined);
      continue;
    }
    if (Date.now() > deadline) throw deadlineExceeded(`waited ${timeoutMs} ms for ${lockDir} held by pid ${owner}`);
    await sleep(POLL_MS);
  }
}

// One berthd per root: two daemons sharing <root>/metadata.db (and the snapshot and content dirs)
// would corrupt each other even with different sockets. The lock is an flock(2) on
// <root>/berthd.lock, held by an open file for the daemon's life, as containerd holds one on bolt's
// meta.db: the kernel ends it when the process ends, however it ends, so a killed owner leaves
// nothing stale to judge. A PID in a file decided it before: two starts after a crash could both
// find the dead owner's file and both remove it, the later removal taking the other's new file,
// and a reused PID running another berthd kept a root locked. The file stays in the root (an
// unlocked file is free), holding the owner's PID for a second daemon's message.
import { closeSync, constants, ftruncateSync, openSync, readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { failedPrecondition } from '../../internal/errdefs/errors';
import { lockExclusive } from '../../internal/sys/lock';

export const ROOT_LOCK_FILE = 'berthd.lock';

/** The owner's PID as the lock file (open as `fd`) says it, for a message; undefined before the owner wrote it. */
function ownerOf(fd: number): number | undefined {
  try {
    const pid = Number(readFileSync(fd, 'latin1').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Takes <root>/berthd.lock; returns the release (for a daemon that stops without exiting; at exit
 * the kernel releases it).
 */
export function acquireRootLock(root: string): () => void {
  const path = join(root, ROOT_LOCK_FILE);
  // Never through a symlink: the lock is a file of this root.
  const fd = openSync(path, constants.O_RDWR | constants.O_CREAT | constants.O_NOFOLLOW, 0o600);
  try {
    if (!lockExclusive(fd)) {
      const owner = ownerOf(fd);
      throw failedPrecondition(`root ${root} is in use by ${owner === undefined ? 'another berthd' : `berthd pid ${owner}`} (${path})`);
    }
  } catch (err) {
    closeSync(fd);
    throw err;
  }
  try {
    ftruncateSync(fd, 0);
    writeSync(fd, `${process.pid}\n`, 0);
  } catch {
    // A full disk: the PID is only for another daemon's message, and the lock is held.
  }
  return () => closeSync(fd);
}

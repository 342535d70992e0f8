// One berthd per root: two daemons sharing <root>/metadata.db (and the snapshot and content dirs)
// would corrupt each other even with different sockets. The lock file holds the owner's PID; a
// file whose PID no longer runs a berthd is stale (the owner was killed) and is taken over.
import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { failedPrecondition } from '../../internal/errdefs/errors';
import { unlinkIfPresent } from '../../internal/fs/unlink_if_present';

function ownerAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid) return false;
  try {
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    return cmdline.includes('berthd');
  } catch {
    return false;
  }
}

/** Takes <root>/berthd.lock; resolves to the release function. */
export function acquireRootLock(root: string): () => void {
  const path = join(root, 'berthd.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx', 0o600);
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      return () => {
        try {
          if (Number(readFileSync(path, 'utf8').trim()) === process.pid) unlinkIfPresent(path);
        } catch {
          // already gone
        }
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    let owner = NaN;
    try {
      owner = Number(readFileSync(path, 'utf8').trim());
    } catch {
      // vanished between open and read: try again
    }
    if (ownerAlive(owner)) {
      throw failedPrecondition(`root ${root} is in use by berthd pid ${owner} (${path})`);
    }
    unlinkIfPresent(path);
  }
  throw failedPrecondition(`root ${root}: cannot take ${path}`);
}

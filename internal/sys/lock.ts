// An exclusive flock(2) on an open file (internal/sys/src/lock.c); Node has no binding for it.
import { loadAddon } from './addon';

interface LockAddon {
  lockExclusive(fd: number): boolean;
}

/**
 * Takes flock(fd, LOCK_EX | LOCK_NB): true when taken, false when another open file holds it.
 * The lock lasts until the fd is closed or the process ends, however it ends.
 */
export function lockExclusive(fd: number): boolean {
  return loadAddon<LockAddon>().lockExclusive(fd);
}

// A directory tree removed by the addon on libuv's thread pool (internal/sys/src/remove.c): by
// descriptor, never following a symlink, at any depth, in steps of ~1,000 entries that each go to
// the back of the pool's queue, so neither berthd's thread nor the fs calls and database fsyncs
// queued on the pool wait for a tree of a million files.
import { loadAddon } from './addon';

interface RemoveAddon {
  removeTree(path: string): Promise<void>;
}

/** Removes `path` and everything under it; nothing there is fine. Rejects with the errno error of the call that failed. */
export function removeTreeOnPool(path: string): Promise<void> {
  return loadAddon<RemoveAddon>().removeTree(path);
}

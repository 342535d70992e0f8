// Copying one of the node's own files (/etc/hosts, /etc/resolv.conf) into a pod's dir, as
// containerd's CopyFile, without letting that file hold berthd: it is opened without blocking (a
// FIFO would wait for a writer), must be a regular file (a device could do anything on read), and is
// copied in chunks on the thread pool, so a huge file is streamed, never held in memory, and nothing
// of it is read on the event loop. Symlinks are followed: /etc/resolv.conf often is one.
import { constants } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { failedPrecondition, messageOf } from '../errdefs/errors';

const OPEN_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY;
const CHUNK_BYTES = 64 << 10;

/** Each read and write a thread-pool job of its own, so a long copy shares the pool. */
async function copyChunks(source: FileHandle, target: FileHandle): Promise<void> {
  const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
  for (;;) {
    const { bytesRead } = await source.read(chunk, 0, CHUNK_BYTES, null);
    if (bytesRead === 0) return;
    for (let written = 0; written < bytesRead; ) written += (await target.write(chunk, written, bytesRead - written)).bytesWritten;
  }
}

/**
 * Copies the node's file `src` to `dest` (created or truncated with `mode`); false when there is no
 * `src`. A `src` that cannot be opened or is not a regular file is a FailedPrecondition naming it.
 */
export async function copyHostFile(src: string, dest: string, mode: number): Promise<boolean> {
  let source;
  try {
    source = await open(src, OPEN_FLAGS);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw failedPrecondition(`cannot open the node's ${src}: ${messageOf(err)}`, err);
  }
  try {
    const stats = await source.stat();
    if (!stats.isFile()) throw failedPrecondition(`the node's ${src} is not a regular file`);
    const target = await open(dest, 'w', mode);
    try {
      await copyChunks(source, target);
    } finally {
      await target.close();
    }
    return true;
  } finally {
    await source.close();
  }
}

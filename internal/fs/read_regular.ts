// Reading a file found by resolveInRoot/resolveInLayers without trusting it: only a regular file
// is opened (a FIFO would block, a device could do anything on open), the open follows no symlink
// and cannot block, the opened inode must be the one resolved, and at most `maxBytes` are read.
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { invalidArgument } from '../errdefs/errors';
import type { ResolvedEntry } from './root_path';

const OPEN_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK | constants.O_NOCTTY;

/** The whole content of `entry`; `name` is how errors call it (e.g. its path inside the image). */
export function readRegularFile(entry: ResolvedEntry, name: string, maxBytes: number): Buffer {
  if (!entry.stats.isFile()) throw invalidArgument(`${name} is not a regular file`);
  if (entry.stats.size > maxBytes) throw invalidArgument(`${name} is larger than ${maxBytes} bytes`);
  const fd = openSync(entry.hostPath, OPEN_FLAGS);
  try {
    const st = fstatSync(fd);
    // Replaced between lookup and open: refuse rather than read something unchecked.
    if (!st.isFile() || st.ino !== entry.stats.ino || st.dev !== entry.stats.dev) {
      throw invalidArgument(`${name} changed while it was being opened`);
    }
    // Read to EOF (the file may have grown since the fstat), failing once past the cap.
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.min(64 << 10, maxBytes + 1 - total));
      const n = readSync(fd, chunk, 0, chunk.length, null);
      if (n === 0) break;
      chunks.push(chunk.subarray(0, n));
      total += n;
      if (total > maxBytes) throw invalidArgument(`${name} is larger than ${maxBytes} bytes`);
    }
    return Buffer.concat(chunks, total);
  } finally {
    closeSync(fd);
  }
}

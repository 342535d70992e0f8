// FIFO plumbing without the libuv thread pool. A FIFO opened O_NONBLOCK never blocks open(2), and
// wrapping the fd in a net.Socket makes libuv treat it as a pipe: reads and writes go through
// epoll on the event loop. fs.createReadStream would instead park a thread-pool thread in read(2)
// for as long as the container is quiet, and four quiet containers would stall all file I/O.
import { closeSync, constants, openSync } from 'node:fs';
import { Socket } from 'node:net';
import * as sys from '../sys/fs';

/** mkfifo(3) through internal/sys. */
export function makeFifo(path: string, mode = 0o700): void {
  sys.mkfifo(path, mode);
}

/** A read end that never blocks, plus the fd number (to hold a keeper write end if needed). */
export function openFifoReader(path: string): Socket {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  return new Socket({ fd, readable: true, writable: false });
}

/**
 * A write end held open by us so the reader does not see EOF before the real writer (the shim)
 * has opened the FIFO. Requires a reader to exist already (else ENXIO).
 */
export function openFifoKeeper(path: string): number {
  return openSync(path, constants.O_WRONLY | constants.O_NONBLOCK);
}

/** A write end for stdin. O_RDWR opens without waiting for the shim to open its read end. */
export function openFifoWriter(path: string): Socket {
  const fd = openSync(path, constants.O_RDWR | constants.O_NONBLOCK);
  return new Socket({ fd, readable: false, writable: true });
}

export function closeFd(fd: number | undefined): void {
  if (fd === undefined) return;
  try {
    closeSync(fd);
  } catch {
    // already closed
  }
}

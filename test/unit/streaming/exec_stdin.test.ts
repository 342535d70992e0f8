// An exec's stdin FIFO (ExecStdin): the client's input must all reach the process however late the
// shim opens its read end (it does so in the background, maybe after the process started): with no
// reader at all a write fails (EPIPE: under load the input past one pipe's worth, 64 KiB, was lost),
// and a pipe with neither end open is freed by the kernel with what it held.
import { closeSync, constants, mkdtempSync, openSync, readdirSync, readSync, rmSync } from 'node:fs';
import { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { ExecStdin } from '../../../internal/cri/streaming_backend';

/** What the shim's late reader of the FIFO gets, to its EOF. */
async function readLate(path: string): Promise<string> {
  const reader = new Socket({ fd: openSync(path, constants.O_RDONLY | constants.O_NONBLOCK), readable: true, writable: false });
  const chunks: Buffer[] = [];
  reader.on('data', (c: Buffer) => chunks.push(c));
  await new Promise((resolve) => reader.once('end', resolve));
  reader.destroy();
  return Buffer.concat(chunks).toString();
}

/**
 * What a reader opening the FIFO after the last writer left finds there. (Such a reader is never
 * woken by epoll: it reads at once, and a read of 0 is the EOF.)
 */
function readLeftover(path: string): string {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const chunks: Buffer[] = [];
    for (;;) {
      const chunk = Buffer.alloc(64 * 1024);
      const n = readSync(fd, chunk);
      if (n === 0) return Buffer.concat(chunks).toString();
      chunks.push(chunk.subarray(0, n));
    }
  } finally {
    closeSync(fd);
  }
}

describe('exec stdin FIFO', () => {
  let dir: string;
  let stdin: ExecStdin | undefined;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'berth-exec-stdin-'));
  });
  afterEach(() => {
    stdin?.abandon();
    stdin = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  it('delivers more than a pipe holds to a reader that opens after the process started', async () => {
    const input = 'x'.repeat(200 * 1024);
    stdin = ExecStdin.create(join(dir, 'e1-stdin'));
    let closedStdin = false;
    stdin.forward(Readable.from([Buffer.from(input)]), Promise.resolve(), async () => {
      closedStdin = true;
    });
    // The process "started" at once; its reader comes late: the pipe is full meanwhile.
    for (let i = 0; i < 20; i++) await nextTurn();
    expect((await readLate(stdin.path)).length).toBe(input.length);
    expect(closedStdin).toBe(true);
  }, 20_000);

  it('removes its FIFO when abandoned, leaving the directory and the FIFOs of other execs', async () => {
    stdin = ExecStdin.create(join(dir, 'e1-stdin'));
    const other = ExecStdin.create(join(dir, 'e2-stdin'));
    expect(() => ExecStdin.create(join(dir, 'e1-stdin'))).toThrow(/File exists/);
    stdin.abandon();
    stdin = undefined;
    expect(readdirSync(dir)).toEqual(['e2-stdin']);
    other.abandon();
    expect(readdirSync(dir)).toEqual([]);
  });

  it('keeps what the client sent and closed before the reader opened', async () => {
    stdin = ExecStdin.create(join(dir, 'e1-stdin'));
    const ourEndClosed = new Promise<void>((resolve) => stdin!.forward(Readable.from([Buffer.from('first\n')]), Promise.resolve(), async () => resolve()));
    await ourEndClosed; // CloseIO is only asked once our writer is closed
    expect(readLeftover(stdin.path)).toBe('first\n');
  }, 20_000);
});

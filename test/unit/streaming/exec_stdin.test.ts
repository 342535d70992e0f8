// An exec's stdin FIFO (ExecStdin): the client's input must all reach the process even when the
// shim opens its read end only after the process started (it does so in the background), which
// under load left the input past the first 64 KiB (one pipe's worth) written to a FIFO with no
// reader at all: EPIPE, and the rest was dropped.
import { constants, mkdtempSync, openSync, rmSync } from 'node:fs';
import { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { ExecStdin } from '../../../internal/cri/streaming_backend';

describe('exec stdin FIFO', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'berth-exec-stdin-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('delivers more than a pipe holds to a reader that opens after the process started', async () => {
    const input = Buffer.alloc(200 * 1024, 'x');
    const stdin = ExecStdin.create(dir);
    let closedStdin = false;
    stdin.forward(Readable.from([input]), Promise.resolve(), async () => {
      closedStdin = true;
    });
    // The process "started" at once; its reader comes late: the pipe is full meanwhile.
    for (let i = 0; i < 20; i++) await nextTurn();
    const reader = new Socket({ fd: openSync(stdin.path, constants.O_RDONLY | constants.O_NONBLOCK), readable: true, writable: false });
    const chunks: Buffer[] = [];
    reader.on('data', (c: Buffer) => chunks.push(c));
    await new Promise((resolve) => reader.once('end', resolve));
    reader.destroy();
    expect(Buffer.concat(chunks).length).toBe(input.length);
    expect(closedStdin).toBe(true);
  }, 20_000);
});

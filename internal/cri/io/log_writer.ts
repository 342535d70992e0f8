// The CRI container log file (kubelet's format): `<RFC3339Nano> <stream> <P|F> <content>\n`.
// stdout and stderr of one container share one file; a line longer than the configured maximum is
// split into partial (P) records followed by a final (F) one, as containerd's redirectLogs does.
import { openSync, writeSync, closeSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Readable } from 'node:stream';
import { rfc3339Nano } from './log_timestamp';

export type LogStream = 'stdout' | 'stderr';

const NEWLINE = 0x0a;

export class CriLogFile {
  private fd: number | undefined;

  constructor(private readonly path: string) {
    this.open();
  }

  private open(): void {
    mkdirSync(dirname(this.path), { recursive: true });
    this.fd = openSync(this.path, 'a', 0o640);
  }

  /** ReopenContainerLog: kubelet rotated the file away; start a new one at the same path. */
  reopen(): void {
    this.close();
    this.open();
  }

  writeRecord(stream: LogStream, tag: 'P' | 'F', content: Buffer): void {
    if (this.fd === undefined) return;
    const head = Buffer.from(`${rfc3339Nano()} ${stream} ${tag} `);
    // One write per record keeps stdout and stderr records whole in the shared file.
    writeSync(this.fd, Buffer.concat([head, content, Buffer.from('\n')]));
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }
}

/**
 * Copies one stream into the log file until it ends. `maxLineSize` <= 0 means no limit.
 * Resolves when the source ends (the container's side of the FIFO closed).
 */
export function redirectToLog(source: Readable, file: CriLogFile, stream: LogStream, maxLineSize: number): Promise<void> {
  let pending: Buffer[] = [];
  let pendingLength = 0;

  const emitPartials = () => {
    if (maxLineSize <= 0) return;
    while (pendingLength >= maxLineSize) {
      const all = Buffer.concat(pending);
      file.writeRecord(stream, 'P', all.subarray(0, maxLineSize));
      const rest = all.subarray(maxLineSize);
      pending = rest.length ? [rest] : [];
      pendingLength = rest.length;
    }
  };

  return new Promise((resolve) => {
    source.on('data', (chunk: Buffer) => {
      let start = 0;
      for (let i = chunk.indexOf(NEWLINE); i !== -1; i = chunk.indexOf(NEWLINE, start)) {
        pending.push(chunk.subarray(start, i));
        pendingLength += i - start;
        emitPartials();
        const line = Buffer.concat(pending);
        file.writeRecord(stream, 'F', line.length && line[line.length - 1] === 0x0d ? line.subarray(0, -1) : line);
        pending = [];
        pendingLength = 0;
        start = i + 1;
      }
      if (start < chunk.length) {
        pending.push(chunk.subarray(start));
        pendingLength += chunk.length - start;
        emitPartials();
      }
    });
    const finish = () => {
      // A last line without a newline is still a whole line (containerd tags it F).
      if (pendingLength > 0) file.writeRecord(stream, 'F', Buffer.concat(pending));
      pending = [];
      pendingLength = 0;
      resolve();
    };
    source.once('end', finish);
    source.once('close', () => {
      if (pendingLength > 0 || !source.readableEnded) finish();
    });
    source.once('error', finish);
  });
}

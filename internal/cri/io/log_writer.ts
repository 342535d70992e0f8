// The CRI container log file (kubelet's format): `<RFC3339Nano> <stream> <P|F> <content>\n`.
// stdout and stderr of one container share one file; a line longer than the configured maximum is
// split into partial (P) records followed by a final (F) one, as containerd's redirectLogs does.
//
// A write that fails (full or failing disk) drops that record and never throws: the output keeps
// draining so the container never blocks on a full pipe, and berthd never dies of a log write, as
// with containerd's logger. Records are whole or absent: a short write is cut back off the file.
import { closeSync, fstatSync, ftruncateSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Readable } from 'node:stream';
import { silentLogger, type Logger } from '../../log/logger';
import { rfc3339Nano } from './log_timestamp';
import { LogWriteErrors } from './write_errors';

export type LogStream = 'stdout' | 'stderr';

const NEWLINE = 0x0a;
const NEWLINE_BUF = Buffer.from('\n');

/** How often a log file that could not be (re)opened is tried again while output arrives. */
export const OPEN_RETRY_MS = 1000;

export interface CriLogFileOptions {
  logger?: Logger;
  /**
   * False: a file that cannot be opened now is retried while output arrives (its records dropped
   * meanwhile) instead of failing the constructor. For a running container reattached after a
   * restart, whose output must keep draining.
   */
  mustOpen?: boolean;
  now?: () => number;
}

export class CriLogFile {
  private fd: number | undefined;
  private closed = false;
  private lastOpenAttempt = 0;
  private readonly errors: LogWriteErrors;
  private readonly now: () => number;

  constructor(
    private readonly path: string,
    opts: CriLogFileOptions = {},
  ) {
    this.now = opts.now ?? Date.now;
    this.errors = new LogWriteErrors(opts.logger ?? silentLogger, path, this.now);
    if (opts.mustOpen ?? true) this.open();
    else this.tryOpen(0);
  }

  private open(): void {
    this.lastOpenAttempt = this.now();
    mkdirSync(dirname(this.path), { recursive: true });
    this.fd = openSync(this.path, 'a', 0o640);
  }

  private tryOpen(records = 1): boolean {
    try {
      this.open();
      return true;
    } catch (err) {
      this.errors.failed(err, records);
      return false;
    }
  }

  /**
   * ReopenContainerLog: kubelet rotated the file away; start a new one at the same path. Throws
   * when the new file cannot be made; output is then dropped and the open retried as it arrives.
   */
  reopen(): void {
    if (this.closed) return; // the container's output already ended
    this.closeFd();
    this.open();
  }

  writeRecord(stream: LogStream, tag: 'P' | 'F', content: Buffer): void {
    if (this.closed) return;
    if (this.fd === undefined) {
      // Closed by a failed reopen, or never opened: retry now and then, drop until it works.
      if (this.now() - this.lastOpenAttempt < OPEN_RETRY_MS) {
        this.errors.failed(new Error('log file is not open'));
        return;
      }
      if (!this.tryOpen()) return; // reported (and the record counted) by tryOpen
    }
    // One write per record keeps stdout and stderr records whole in the shared file.
    const record = Buffer.concat([Buffer.from(`${rfc3339Nano()} ${stream} ${tag} `), content, NEWLINE_BUF]);
    try {
      writeWhole(this.fd!, record);
      this.errors.succeeded();
    } catch (err) {
      this.errors.failed(err);
    }
  }

  close(): void {
    this.closed = true;
    this.closeFd();
  }

  private closeFd(): void {
    const fd = this.fd;
    this.fd = undefined;
    if (fd === undefined) return;
    try {
      closeSync(fd);
    } catch {
      // close(2) reports a failed deferred write (NFS, EIO); the fd is gone either way
    }
  }
}

/**
 * Appends all of `record` or, when the disk takes only part of it, removes that part again (we are
 * the file's only writer, so the file ends with it) and throws. A record cut in half would glue
 * itself to the next one and break kubelet's parsing of both.
 */
function writeWhole(fd: number, record: Buffer): void {
  let written = 0;
  try {
    while (written < record.length) {
      const n = writeSync(fd, record, written, record.length - written);
      if (n <= 0) throw Object.assign(new Error(`short write: ${written} of ${record.length} bytes`), { code: 'EIO' });
      written += n;
    }
  } catch (err) {
    if (written > 0) {
      try {
        ftruncateSync(fd, fstatSync(fd).size - written);
      } catch {
        // nothing more to do: the next record starts after the torn one
      }
    }
    throw err;
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

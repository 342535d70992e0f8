// The CRI container log file (kubelet's format): `<RFC3339Nano> <stream> <P|F> <content>\n`.
// stdout and stderr of one container share one file; a line longer than the configured maximum is
// split into partial (P) records followed by a final (F) one, as containerd's redirectLogs does.
//
// A write that fails (full or failing disk) drops its records and never throws: the output keeps
// draining so the container never blocks on a full pipe, and berthd never dies of a log write, as
// with containerd's logger. Records are whole or absent: a short write is cut back off the file.
//
// The records of one read from the container's pipe go in one write(2), under one timestamp: a
// container printing short lines (`yes`) made a record, a Buffer.concat and a write(2) per line on
// berthd's one thread, and 10 MB of "y\n" held every other call for up to 20 s.
import { closeSync, fstatSync, ftruncateSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Readable } from 'node:stream';
import { silentLogger, type Logger } from '../../log/logger';
import { openLogFile } from './log_open';
import { rfc3339Nano } from './log_timestamp';
import { LogWriteErrors } from './write_errors';

export type LogStream = 'stdout' | 'stderr';

const TAG_BYTE = { P: 0x50, F: 0x46 } as const;
const SPACE = 0x20;
const CR = 0x0d;
/** Contents up to this long are copied byte by byte: cheaper than a Buffer.copy call each. */
const INLINE_COPY_MAX = 64;

/**
 * CRI log records to write together: each a tag (partial or final) and its content (without its
 * newline) as a byte range of a source buffer, in typed arrays. A container printing short lines
 * (`yes`) makes 32,768 records of a 64 KiB read: a Buffer view and an object each cost more than
 * copying the bytes.
 */
export class LogRecords {
  private count = 0;
  tags: Uint8Array;
  starts: Uint32Array;
  ends: Uint32Array;
  /** Index into `sources` of each record's source; consecutive records mostly share one. */
  sourceOf: Uint32Array;
  readonly sources: Buffer[] = [];

  constructor(capacity = 1) {
    this.tags = new Uint8Array(capacity);
    this.starts = new Uint32Array(capacity);
    this.ends = new Uint32Array(capacity);
    this.sourceOf = new Uint32Array(capacity);
  }

  add(tag: 'P' | 'F', source: Buffer, start = 0, end = source.length): void {
    if (this.count === this.tags.length) this.grow();
    const r = this.count++;
    if (this.sources[this.sources.length - 1] !== source) this.sources.push(source);
    this.tags[r] = TAG_BYTE[tag];
    this.starts[r] = start;
    this.ends[r] = end;
    this.sourceOf[r] = this.sources.length - 1;
  }

  get length(): number {
    return this.count;
  }

  /** Empties it for the next batch, keeping its room. */
  reset(): void {
    this.count = 0;
    this.sources.length = 0;
  }

  /** Past its room: twice as much. */
  private grow(): void {
    const bigger = <T extends Uint8Array | Uint32Array>(a: T): T => {
      const b = new (a.constructor as new (n: number) => T)(Math.max(1, a.length * 2));
      b.set(a);
      return b;
    };
    this.tags = bigger(this.tags);
    this.starts = bigger(this.starts);
    this.ends = bigger(this.ends);
    this.sourceOf = bigger(this.sourceOf);
  }
}

const NEWLINE = 0x0a;

/**
 * Output handled per stream in one turn of the event loop: libuv reads up to 32 chunks of 64 KiB
 * from a pipe in one go, and 2 MiB of short lines is a second of work, which every other call would
 * wait out. Past this the stream pauses until the next turn.
 */
const TURN_BYTES = 64 << 10;

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
  /**
   * The pod's log directory: the file is reached from its parent without following a symlink
   * (log_open.ts). Without it, only the file itself is not followed.
   */
  logDirectory?: string;
}

export class CriLogFile {
  private fd: number | undefined;
  private closed = false;
  private lastOpenAttempt = 0;
  private readonly errors: LogWriteErrors;
  private readonly now: () => number;
  /** Where following symlinks ends on the way to the file. */
  private readonly trusted: string;

  constructor(
    private readonly path: string,
    opts: CriLogFileOptions = {},
  ) {
    this.now = opts.now ?? Date.now;
    this.trusted = opts.logDirectory === undefined ? dirname(path) : dirname(opts.logDirectory);
    this.errors = new LogWriteErrors(opts.logger ?? silentLogger, path, this.now);
    if (opts.mustOpen ?? true) this.open();
    else this.tryOpen(0);
  }

  private open(): void {
    this.lastOpenAttempt = this.now();
    this.fd = openLogFile(this.path, this.trusted);
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
    const records = new LogRecords();
    records.add(tag, content);
    this.writeRecords(stream, records);
  }

  /** Appends `records` of `stream` in one write, all stamped now. */
  writeRecords(stream: LogStream, records: LogRecords): void {
    if (this.closed || records.length === 0) return;
    if (this.fd === undefined) {
      // Closed by a failed reopen, or never opened: retry now and then, drop until it works.
      if (this.now() - this.lastOpenAttempt < OPEN_RETRY_MS) {
        this.errors.failed(new Error('log file is not open'), records.length);
        return;
      }
      if (!this.tryOpen(records.length)) return; // reported (and the records counted) by tryOpen
    }
    // One write for them all keeps stdout's and stderr's records whole in the shared file.
    const head = Buffer.from(`${rfc3339Nano()} ${stream} `);
    const headLength = head.length;
    const { tags, sources, sourceOf, starts, ends: contentEnds } = records;
    const n = records.length;
    let size = 0;
    for (let r = 0; r < n; r++) size += headLength + 2 + (contentEnds[r]! - starts[r]!) + 1;
    const out = Buffer.allocUnsafe(size);
    const ends: number[] = new Array<number>(n);
    let at = 0;
    for (let r = 0; r < n; r++) {
      for (let k = 0; k < headLength; k++) out[at++] = head[k]!;
      out[at++] = tags[r]!;
      out[at++] = SPACE;
      const source = sources[sourceOf[r]!]!;
      const start = starts[r]!;
      const end = contentEnds[r]!;
      if (end - start <= INLINE_COPY_MAX) for (let k = start; k < end; k++) out[at++] = source[k]!;
      else at += source.copy(out, at, start, end);
      out[at++] = NEWLINE;
      ends[r] = at;
    }
    const { kept, error } = appendRecords(this.fd!, out, ends);
    if (error === undefined) this.errors.succeeded();
    else this.errors.failed(error, records.length - kept);
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
 * Appends `out`, records ending at the offsets `ends`. When the disk takes only part of it (full),
 * the records written whole stay and the part of one after them is removed again (we are the
 * file's only writer, so the file ends with it): a record cut in half would glue itself to the next
 * one and break kubelet's parsing of both. Says how many records stayed, and the error if not all.
 */
function appendRecords(fd: number, out: Buffer, ends: readonly number[]): { kept: number; error?: unknown } {
  let written = 0;
  try {
    while (written < out.length) {
      const n = writeSync(fd, out, written, out.length - written);
      if (n <= 0) throw Object.assign(new Error(`short write: ${written} of ${out.length} bytes`), { code: 'EIO' });
      written += n;
    }
    return { kept: ends.length };
  } catch (error) {
    let kept = 0;
    while (kept < ends.length && ends[kept]! <= written) kept++;
    const torn = written - (kept > 0 ? ends[kept - 1]! : 0);
    if (torn > 0) {
      try {
        ftruncateSync(fd, fstatSync(fd).size - torn);
      } catch {
        // nothing more to do: the next record starts after the torn one
      }
    }
    return { kept, error };
  }
}

/**
 * The index of the next newline in `chunk` from `from`, or -1. Short lines are scanned here: a
 * Buffer.indexOf call each cost more than the scan; past a few bytes, indexOf (memchr) is faster.
 */
function nextNewline(chunk: Buffer, from: number): number {
  const scanTo = Math.min(chunk.length, from + INLINE_COPY_MAX);
  for (let i = from; i < scanTo; i++) if (chunk[i] === NEWLINE) return i;
  return scanTo < chunk.length ? chunk.indexOf(NEWLINE, scanTo) : -1;
}

/** Stops reading the source until the returned release is called (whoever else holds it too). */
export type HoldOutput = () => () => void;

/**
 * Copies one stream into the log file until it ends. `maxLineSize` <= 0 means no limit.
 * Resolves when the source ends (the container's side of the FIFO closed). `hold` pauses the
 * source for the rest of a turn in which it brought more than TURN_BYTES.
 */
export function redirectToLog(
  source: Readable,
  file: CriLogFile,
  stream: LogStream,
  maxLineSize: number,
  hold: HoldOutput = () => {
    source.pause();
    return () => source.resume();
  },
): Promise<void> {
  /** The start of a line not yet ended, from earlier reads. */
  let pending: Buffer[] = [];
  let pendingLength = 0;
  /** The records of the read being handled, written together at its end; reused, so its room is grown once. */
  const records = new LogRecords(1024);
  let handledThisTurn = 0;

  // Only what goes past the maximum is split off, as containerd: a line of exactly the maximum is
  // one F record (and a CR before its newline is still dropped), not a P and an empty F.
  const emitPartials = () => {
    if (maxLineSize <= 0) return;
    while (pendingLength > maxLineSize) {
      const all = pending.length === 1 ? pending[0]! : Buffer.concat(pending);
      records.add('P', all, 0, maxLineSize);
      const rest = all.subarray(maxLineSize);
      pending = rest.length ? [rest] : [];
      pendingLength = rest.length;
    }
  };

  /** A final record of `from`'s bytes [start, end), its CR before the newline dropped. */
  const addLine = (from: Buffer, start: number, end: number) => records.add('F', from, start, end > start && from[end - 1] === CR ? end - 1 : end);

  return new Promise((resolve) => {
    source.on('data', (chunk: Buffer) => {
      records.reset();
      let start = 0;
      for (let i = nextNewline(chunk, 0); i !== -1; i = nextNewline(chunk, start)) {
        if (pendingLength === 0 && (maxLineSize <= 0 || i - start <= maxLineSize)) {
          // The whole line is in this read (nearly always): a range of it.
          addLine(chunk, start, i);
        } else {
          pending.push(chunk.subarray(start, i));
          pendingLength += i - start;
          emitPartials();
          const line = pending.length === 1 ? pending[0]! : Buffer.concat(pending);
          addLine(line, 0, line.length);
          pending = [];
          pendingLength = 0;
        }
        start = i + 1;
      }
      if (start < chunk.length) {
        pending.push(chunk.subarray(start));
        pendingLength += chunk.length - start;
        emitPartials();
      }
      file.writeRecords(stream, records);
      handledThisTurn += chunk.length;
      if (handledThisTurn >= TURN_BYTES) {
        const release = hold();
        setImmediate(() => {
          handledThisTurn = 0;
          release();
        });
      }
    });
    const finish = () => {
      // A last line without a newline is partial, as containerd tags it: kubelet then shows it
      // without the newline the container never wrote.
      if (pendingLength > 0) file.writeRecord(stream, 'P', Buffer.concat(pending));
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

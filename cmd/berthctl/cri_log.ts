// Reading a container's CRI log file as kubelet writes it and crictl reads it: one entry per line,
// "<RFC3339Nano time> <stdout|stderr> <P|F> <content>", P entries continued by the next until an F.
// berthctl reads the file itself (it runs as root on berthd's host, like crictl), at the path
// ContainerStatus names. Memory stays bounded: the file is read in chunks, --tail keeps only offsets.
import { fstatSync, openSync, readSync, closeSync, statSync } from 'node:fs';

export interface LogEntry {
  time: string;
  stream: 'stdout' | 'stderr';
  partial: boolean;
  content: Buffer;
}

const NEWLINE = 0x0a;
const SPACE = 0x20;
const CHUNK = 64 * 1024;

/** One raw line (without its newline); undefined when it is not a CRI log line. */
export function parseLogLine(line: Buffer): LogEntry | undefined {
  const first = line.indexOf(SPACE);
  const second = first < 0 ? -1 : line.indexOf(SPACE, first + 1);
  if (second < 0) return undefined;
  const stream = line.subarray(first + 1, second).toString();
  if (stream !== 'stdout' && stream !== 'stderr') return undefined;
  const tag = line.subarray(second + 1, line.indexOf(SPACE, second + 1) < 0 ? line.length : line.indexOf(SPACE, second + 1)).toString();
  const contentStart = second + 1 + tag.length + 1;
  return {
    time: line.subarray(0, first).toString(),
    stream,
    partial: tag.split(':')[0] === 'P',
    content: line.subarray(Math.min(contentStart, line.length)),
  };
}

/** Splits chunks into lines, carrying an unfinished last line over to the next chunk. */
class LineSplitter {
  private rest = Buffer.alloc(0);
  /** Bytes consumed up to the end of the last complete line, from where splitting began. */
  consumed = 0;

  push(chunk: Buffer, onLine: (line: Buffer, end: number) => void): void {
    let data = this.rest.length > 0 ? Buffer.concat([this.rest, chunk]) : chunk;
    let start = 0;
    for (let nl = data.indexOf(NEWLINE); nl >= 0; nl = data.indexOf(NEWLINE, start)) {
      this.consumed += nl + 1 - start;
      onLine(data.subarray(start, nl), this.consumed);
      start = nl + 1;
    }
    data = data.subarray(start);
    this.rest = Buffer.from(data);
  }
}

/** Byte offset where the last `lines` whole log lines (F-terminated entries) begin. */
export function tailOffset(path: string, lines: number): number {
  const fd = openSync(path, 'r');
  try {
    const starts: number[] = [];
    let entryStart = 0;
    const splitter = new LineSplitter();
    const buf = Buffer.alloc(CHUNK);
    for (let n = readSync(fd, buf); n > 0; n = readSync(fd, buf)) {
      splitter.push(buf.subarray(0, n), (line, end) => {
        const entry = parseLogLine(line);
        if (entry && entry.partial) return;
        starts.push(entryStart);
        if (starts.length > lines) starts.shift();
        entryStart = end;
      });
    }
    if (lines === 0) return splitter.consumed;
    return starts.length < lines ? 0 : starts[0]!;
  } finally {
    closeSync(fd);
  }
}

export interface FollowOptions {
  timestamps: boolean;
  follow: boolean;
  /** Asked while following at the end of the file: stop once it answers false. */
  stillRunning: () => Promise<boolean>;
  write: (stream: 'stdout' | 'stderr', data: Buffer) => Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Prints the log from `offset`, then (with follow) what is appended, across a rotation (the path
 * names a new file), until the container is no longer running and the file has no more.
 */
export async function printLog(path: string, offset: number, opts: FollowOptions): Promise<void> {
  let fd = openSync(path, 'r');
  let position = offset;
  let splitter = new LineSplitter();
  let atLineStart = true;
  const buf = Buffer.alloc(CHUNK);
  const emit = async (line: Buffer) => {
    const entry = parseLogLine(line);
    if (!entry) return;
    const prefix = opts.timestamps && atLineStart ? Buffer.from(`${entry.time} `) : Buffer.alloc(0);
    await opts.write(entry.stream, Buffer.concat([prefix, entry.content, entry.partial ? Buffer.alloc(0) : Buffer.from('\n')]));
    atLineStart = !entry.partial;
  };
  const drain = async (): Promise<boolean> => {
    let any = false;
    for (let n = readSync(fd, buf, 0, CHUNK, position); n > 0; n = readSync(fd, buf, 0, CHUNK, position)) {
      position += n;
      any = true;
      const lines: Buffer[] = [];
      splitter.push(buf.subarray(0, n), (line) => lines.push(Buffer.from(line)));
      for (const line of lines) await emit(line);
    }
    return any;
  };
  try {
    await drain();
    if (!opts.follow) return;
    let lastCheck = 0;
    for (;;) {
      if (await drain()) continue;
      const rotated = (() => {
        try {
          const now = statSync(path);
          const open = fstatSync(fd);
          return now.ino !== open.ino || now.size < position;
        } catch {
          return false; // between rename and reopen: look again next time
        }
      })();
      if (rotated) {
        await drain();
        closeSync(fd);
        fd = openSync(path, 'r');
        position = 0;
        splitter = new LineSplitter();
        continue;
      }
      if (Date.now() - lastCheck >= 1000) {
        lastCheck = Date.now();
        if (!(await opts.stillRunning())) {
          await drain();
          return;
        }
      }
      await sleep(200);
    }
  } finally {
    closeSync(fd);
  }
}

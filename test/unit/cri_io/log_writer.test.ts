import { mkdirSync, mkdtempSync, readFileSync, rmSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { CriLogFile, LogRecords, OPEN_RETRY_MS, redirectToLog } from '../../../internal/cri/io/log_writer';
import { rfc3339Nano } from '../../../internal/cri/io/log_timestamp';
import { REPORT_INTERVAL_MS } from '../../../internal/cri/io/write_errors';
import { createLogger } from '../../../internal/log/logger';
import { fillUp, mountTmpfs, unmountTmpfs } from '../../harness/tmpfs';

const RECORD = /^(\S+) (stdout|stderr) ([PF]) (.*)$/;

describe('CRI log file', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'berth-log-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('writes kubelet-format records, splitting what goes past the maximum into partials', async () => {
    const file = new CriLogFile(join(dir, 'c', '0.log'));
    const out = new PassThrough();
    const err = new PassThrough();
    const done = Promise.all([redirectToLog(out, file, 'stdout', 8), redirectToLog(err, file, 'stderr', 8)]);
    out.write('hello\nwor');
    out.write('ld\n0123456789abcdefXY\n');
    // As containerd: a line of exactly the maximum is one F record, its CR dropped.
    out.write('01234567\n0123456\r\n');
    err.write('oops\n');
    out.end('tail');
    err.end();
    await done;
    file.close();
    const records = readFileSync(join(dir, 'c', '0.log'), 'utf8').trimEnd().split('\n').map((l) => l.match(RECORD)!.slice(2));
    expect(records).toEqual([
      ['stdout', 'F', 'hello'],
      ['stdout', 'F', 'world'],
      ['stdout', 'P', '01234567'],
      ['stdout', 'P', '89abcdef'],
      ['stdout', 'F', 'XY'],
      ['stdout', 'F', '01234567'],
      ['stdout', 'F', '0123456'],
      ['stderr', 'F', 'oops'],
      // A last line the container never ended is partial, as containerd tags it.
      ['stdout', 'P', 'tail'],
    ]);
  });

  it('holds a stream that brought 64 KiB in one turn until the next, every line still a record', async () => {
    // What a container printing `yes` brings: each 48 KiB read is 24,576 records.
    const path = join(dir, '0.log');
    const file = new CriLogFile(path);
    const out = new PassThrough();
    const lines = () => readFileSync(path, 'utf8').split('\n').length - 1;
    const events: string[] = [];
    const hold = () => {
      events.push(`hold at ${lines()}`);
      out.pause();
      return () => {
        events.push(`release at ${lines()}`);
        out.resume();
      };
    };
    const done = redirectToLog(out, file, 'stdout', 0, hold);
    const chunk = Buffer.from('y\n'.repeat(24 * 1024));
    for (let i = 0; i < 3; i++) out.write(chunk);
    out.end();
    await done;
    file.close();
    // Held after the second read, until a later turn: the third waited for it.
    expect(events).toEqual([`hold at ${2 * 24 * 1024}`, `release at ${2 * 24 * 1024}`]);
    const records = readFileSync(path, 'utf8').trimEnd().split('\n');
    expect(records).toHaveLength(3 * 24 * 1024);
    expect(records.every((r) => RECORD.exec(r)?.slice(2).join(' ') === 'stdout F y')).toBe(true);
  });

  it('reopens at the same path after rotation', async () => {
    const path = join(dir, '0.log');
    const file = new CriLogFile(path);
    file.writeRecord('stdout', 'F', Buffer.from('before'));
    renameSync(path, path + '.1');
    file.reopen();
    file.writeRecord('stdout', 'F', Buffer.from('after'));
    file.close();
    expect(readFileSync(path + '.1', 'utf8')).toMatch(/ before\n$/);
    expect(readFileSync(path, 'utf8')).toMatch(/ after\n$/);
  });

  it('writes records given as ranges of their sources, past the capacity they were sized for', () => {
    const path = join(dir, 'ranges.log');
    const file = new CriLogFile(path);
    const a = Buffer.from('one\ntwo\n');
    const records = new LogRecords(1);
    records.add('F', a, 0, 3);
    records.add('F', a, 0, 0);
    records.add('F', a, 4, 7);
    records.add('P', Buffer.from('three'));
    file.writeRecords('stderr', records);
    file.close();
    const lines = readFileSync(path, 'utf8').trimEnd().split('\n').map((l) => l.match(RECORD)!.slice(2));
    expect(lines).toEqual([
      ['stderr', 'F', 'one'],
      ['stderr', 'F', ''],
      ['stderr', 'F', 'two'],
      ['stderr', 'P', 'three'],
    ]);
  });

  it('formats timestamps like Go RFC3339Nano', () => {
    const at = (iso: string, extraNanos = 0n) => BigInt(Date.parse(iso)) * 1_000_000n + extraNanos;
    expect(rfc3339Nano(at('2024-01-02T03:04:05.120Z'))).toBe('2024-01-02T03:04:05.12Z');
    expect(rfc3339Nano(at('2024-01-02T03:04:05.000Z'))).toBe('2024-01-02T03:04:05Z');
    expect(rfc3339Nano(at('2024-01-02T03:04:05.000Z', 5n))).toBe('2024-01-02T03:04:05.000000005Z');
  });

  it('never steps back from one timestamp to the next, as records of one stream must not', () => {
    const nanosOf = (text: string) => {
      const m = /^(.*?)(?:\.(\d+))?Z$/.exec(text)!;
      return BigInt(Date.parse(`${m[1]}Z`)) * 1_000_000n + BigInt((m[2] ?? '').padEnd(9, '0'));
    };
    let previous = nanosOf(rfc3339Nano());
    let backwards = 0;
    // Long enough to cross a few hundred millisecond boundaries.
    for (let i = 0; i < 300_000; i++) {
      const now = nanosOf(rfc3339Nano());
      if (now < previous) backwards++;
      previous = now;
    }
    expect(backwards).toBe(0);
  });
});

/** A logger that keeps its lines, and a clock the test moves. */
function captured() {
  const lines: Array<Record<string, unknown>> = [];
  const logger = createLogger({ level: 'debug', write: (l) => lines.push(JSON.parse(l) as Record<string, unknown>) });
  const clock = { t: 1_000_000 };
  return { lines, logger, clock, now: () => clock.t, msgs: (level: string) => lines.filter((l) => l.level === level) };
}

describe('CRI log file on a full disk', () => {
  let dir: string;
  let mnt: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'berth-log-full-'));
    mnt = join(dir, 'mnt');
    mountTmpfs(mnt, '64k');
  });
  afterEach(() => {
    unmountTmpfs(mnt);
    rmSync(dir, { recursive: true, force: true });
  });

  it('drops what does not fit, keeps draining, leaves only whole records, and writes again once space is freed', async () => {
    const path = join(mnt, '0.log');
    const log = captured();
    const filler = fillUp(mnt, 'filler');
    rmSync(filler);
    writeFileSync(filler, Buffer.alloc(32 * 1024)); // half the disk: the log fills the rest
    const file = new CriLogFile(path, { logger: log.logger, now: log.now });
    const out = new PassThrough();
    const copied = redirectToLog(out, file, 'stdout', 0);
    const line = (i: number) => `line ${String(i).padStart(6, '0')} ${'x'.repeat(90)}\n`;
    for (let i = 0; i < 2000; i++) out.write(line(i)); // 200 KiB: far more than the disk holds
    // Draining never stopped: every chunk was consumed (64 KiB a turn), nothing waits in the stream's buffer.
    for (let turn = 0; turn < 100 && out.readableLength > 0; turn++) await new Promise((r) => setImmediate(r));
    expect(out.readableLength).toBe(0);
    const full = readFileSync(path, 'utf8');
    const records = full.split('\n');
    expect(records.pop()).toBe(''); // ends with a newline: no record cut in half at the end
    expect(records.length).toBeGreaterThan(0);
    expect(records.length).toBeLessThan(2000);
    for (const r of records) expect(r).toMatch(/^\S+ stdout F line \d{6} x{90}$/);
    // One error line for the whole episode (the clock did not move), naming the errno.
    expect(log.msgs('error')).toHaveLength(1);
    expect(log.msgs('error')[0]).toMatchObject({ path, code: 'ENOSPC' });

    log.clock.t += REPORT_INTERVAL_MS;
    out.write(line(2000));
    expect(log.msgs('error')).toHaveLength(2);
    expect(log.msgs('error')[1]!.droppedRecords).toBeGreaterThan(0);

    rmSync(filler);
    out.end('after the space came back\n');
    await copied;
    file.close();
    const after = readFileSync(path, 'utf8');
    expect(after.startsWith(full)).toBe(true);
    expect(after.slice(full.length)).toMatch(/^\S+ stdout F after the space came back\n$/);
    expect(log.msgs('warn')).toEqual([expect.objectContaining({ msg: 'container log writable again', path })]);
  });

  it('a reopen that fails leaves output dropped, and the open is retried as output arrives', () => {
    const podDir = join(mnt, 'pod');
    const path = join(podDir, 'c', '0.log');
    const log = captured();
    const file = new CriLogFile(path, { logger: log.logger, now: log.now });
    file.writeRecord('stdout', 'F', Buffer.from('before'));
    // kubelet rotated the file away, and the directory is no longer usable.
    renameSync(podDir, join(mnt, 'rotated'));
    writeFileSync(podDir, 'not a directory');
    expect(() => file.reopen()).toThrow(/ENOTDIR|EEXIST/);
    file.writeRecord('stdout', 'F', Buffer.from('dropped'));
    rmSync(podDir);
    mkdirSync(join(podDir, 'c'), { recursive: true });
    file.writeRecord('stdout', 'F', Buffer.from('too soon to retry'));
    log.clock.t += OPEN_RETRY_MS;
    file.writeRecord('stdout', 'F', Buffer.from('after'));
    file.close();
    expect(readFileSync(join(mnt, 'rotated', 'c', '0.log'), 'utf8')).toMatch(/^\S+ stdout F before\n$/);
    expect(readFileSync(path, 'utf8')).toMatch(/^\S+ stdout F after\n$/);
    expect(log.msgs('error')).toHaveLength(1);
  });
});

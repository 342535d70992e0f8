import { mkdtempSync, readFileSync, rmSync, renameSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { CriLogFile, redirectToLog } from '../../../internal/cri/io/log_writer';
import { rfc3339Nano } from '../../../internal/cri/io/log_timestamp';

const RECORD = /^(\S+) (stdout|stderr) ([PF]) (.*)$/;

describe('CRI log file', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'berth-log-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('writes kubelet-format records, splitting long lines into partials', async () => {
    const file = new CriLogFile(join(dir, 'c', '0.log'));
    const out = new PassThrough();
    const err = new PassThrough();
    const done = Promise.all([redirectToLog(out, file, 'stdout', 8), redirectToLog(err, file, 'stderr', 8)]);
    out.write('hello\nwor');
    out.write('ld\n0123456789abcdefXY\n');
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
      ['stderr', 'F', 'oops'],
      ['stdout', 'F', 'tail'],
    ]);
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

  it('formats timestamps like Go RFC3339Nano', () => {
    expect(rfc3339Nano(new Date('2024-01-02T03:04:05.120Z'), 0)).toBe('2024-01-02T03:04:05.12Z');
    expect(rfc3339Nano(new Date('2024-01-02T03:04:05.000Z'), 0)).toBe('2024-01-02T03:04:05Z');
    expect(rfc3339Nano(new Date('2024-01-02T03:04:05.000Z'), 5)).toBe('2024-01-02T03:04:05.000000005Z');
  });
});

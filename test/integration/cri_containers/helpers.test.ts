// The pure parts of the container verbs, and ContainerIO over real FIFOs (a writer process stands
// in for the shim), so they are checked without a daemon.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ContainerIO } from '../../../internal/cri/container_io';
import { containerLogPath, containerStopSignal } from '../../../internal/cri/server/container_create';
import { CappedBuffer } from '../../../internal/cri/server/container_execsync';
import { parseSignal } from '../../../internal/cri/server/container_stop';
import type { ContainerConfig__Output } from '../../../internal/api/gen/runtime/v1/ContainerConfig';

const RECORD = /^(\S+) (stdout|stderr) ([PF]) (.*)$/;

describe('parseSignal', () => {
  it.each([
    ['SIGTERM', 15],
    ['TERM', 15],
    ['sigkill', 9],
    ['9', 9],
    ['SIGUSR1', 10],
    ['SIGRTMIN', 34],
    ['SIGRTMIN+3', 37],
    ['RTMAX-1', 63],
    ['SIGRTMAX', 64],
  ])('%s -> %d', (text, n) => expect(parseSignal(text)).toBe(n));

  it.each(['SIGNOPE', '0', '65', 'SIGRTMIN+40', ''])('refuses %j', (text) => {
    expect(() => parseSignal(text)).toThrow(/signal/);
  });
});

describe('containerLogPath', () => {
  it('joins the pod log directory and the container log path', () => {
    expect(containerLogPath('/var/log/pods/ns_p_uid', 'c/0.log')).toBe('/var/log/pods/ns_p_uid/c/0.log');
  });
  it('is empty without a log path', () => expect(containerLogPath('/var/log/pods/x', '')).toBe(''));
  it('refuses a path climbing out of the pod directory', () => {
    expect(() => containerLogPath('/var/log/pods/x', '../../etc/passwd')).toThrow(/log_path "..\/..\/etc\/passwd"/);
  });
  it('is empty without a pod log directory, as containerd then writes no log', () => {
    expect(containerLogPath('', 'c/0.log')).toBe('');
    expect(containerLogPath('', '/etc/cron.d/x')).toBe('');
  });
});

describe('containerStopSignal', () => {
  const config = (stop_signal: string) => ({ stop_signal }) as unknown as ContainerConfig__Output;
  it('prefers the CRI stop_signal', () => expect(containerStopSignal(config('SIGNAL_SIGUSR1'), 'SIGQUIT')).toBe('SIGUSR1'));
  it('falls back to the image StopSignal', () => expect(containerStopSignal(config('SIGNAL_RUNTIME_DEFAULT'), 'SIGQUIT')).toBe('SIGQUIT'));
  it('defaults to SIGTERM', () => expect(containerStopSignal(config('SIGNAL_RUNTIME_DEFAULT'), undefined)).toBe('SIGTERM'));
});

describe('CappedBuffer', () => {
  it('keeps the first cap bytes and drops the rest', () => {
    const b = new CappedBuffer(5);
    b.write(Buffer.from('abc'));
    b.write(Buffer.from('defg'));
    b.write(Buffer.from('h'));
    expect(b.bytes().toString()).toBe('abcde');
  });
});

describe('ContainerIO', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'berth-cio-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  /** A process writing to the FIFOs as the shim would; resolves with its exit code. */
  function writer(script: string, paths: { stdout: string; stderr: string }): Promise<number | null> {
    const child = spawn('/bin/sh', ['-c', `exec >"$1" 2>"$2"; ${script}`, 'sh', paths.stdout, paths.stderr], { stdio: 'ignore' });
    return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  }

  it('copies stdout and stderr into the CRI log, long lines as partials, until both end', async () => {
    const logPath = join(dir, 'logs', '0.log');
    const io = ContainerIO.create({ dir: join(dir, 'io'), id: 'c1', stdin: false, tty: false, logPath, maxLineSize: 4 });
    const seen: string[] = [];
    io.addOutputListener((stream, chunk) => seen.push(`${stream}:${chunk.toString()}`));
    // Our keepers stand in for the shim's write ends until it has opened the FIFOs (here: exited).
    expect(await writer("printf 'hi\\n'; printf 'abcdefghij\\n' >&2", io.paths)).toBe(0);
    io.releaseKeepers();
    await io.drained();
    io.remove();
    const records = readFileSync(logPath, 'utf8').trimEnd().split('\n').map((l) => l.match(RECORD)!.slice(2));
    expect(records.filter((r) => r[0] === 'stdout')).toEqual([['stdout', 'F', 'hi']]);
    expect(records.filter((r) => r[0] === 'stderr')).toEqual([
      ['stderr', 'P', 'abcd'],
      ['stderr', 'P', 'efgh'],
      ['stderr', 'F', 'ij'],
    ]);
    expect(seen.join('')).toContain('hi');
    expect(readdirSync(join(dir, 'io'))).toEqual([]); // the FIFOs go, the container's dir stays
  });

  it('reopens the log at the same path after kubelet rotated it', async () => {
    const logPath = join(dir, '0.log');
    const io = ContainerIO.create({ dir: join(dir, 'io'), id: 'c2', stdin: false, tty: false, logPath, maxLineSize: 0 });
    await writer("printf 'before\\n'", io.paths);
    io.releaseKeepers();
    await io.drained();
    renameSync(logPath, logPath + '.1');
    io.reopenLog();
    expect(existsSync(logPath)).toBe(true);
    expect(readFileSync(logPath + '.1', 'utf8')).toMatch(/ stdout F before\n$/);
    io.remove();
  });

  it('discards output when there is no log path, so the writer never blocks', async () => {
    const io = ContainerIO.create({ dir: join(dir, 'io'), id: 'c3', stdin: false, tty: false, logPath: '', maxLineSize: 0 });
    // 1 MiB is far beyond a pipe buffer: without a reader the writer would block forever.
    expect(await writer('head -c 1048576 /dev/zero', io.paths)).toBe(0);
    io.releaseKeepers();
    await io.drained();
    expect(() => io.reopenLog()).toThrow(/no log path/);
    io.remove();
  });
});

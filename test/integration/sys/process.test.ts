// runProcess (posix_spawn on its own thread) against real binaries: stdio, exit status, signals,
// environment, working directory, timeouts, and a large stdin/stdout that must not deadlock.
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { daemonEnv, runProcess } from '../../../internal/sys/process';

const SH = '/bin/sh';
let dir: string;
beforeEach(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'berth-proc-')));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function sh(script: string, extra: { stdin?: string | Buffer; timeoutMs?: number; cwd?: string; env?: NodeJS.ProcessEnv } = {}) {
  return runProcess({ file: SH, args: ['-c', script], env: extra.env ?? { PATH: '/usr/bin:/bin' }, timeoutMs: extra.timeoutMs ?? 10_000, stdin: extra.stdin, cwd: extra.cwd });
}

describe('runProcess', () => {
  it('feeds stdin and returns stdout, stderr and the exit status', async () => {
    const r = await sh('read line; echo "got $line"; echo oops >&2; exit 3', { stdin: 'hello\n' });
    expect(r).toMatchObject({ code: 3, signal: null, timedOut: false, truncated: false });
    expect(r.stdout.toString()).toBe('got hello\n');
    expect(r.stderr.toString()).toBe('oops\n');
  });

  it('passes exactly the environment given, and runs in cwd', async () => {
    const r = await sh('echo "$FOO|$HOME|$(pwd)"', { env: { FOO: 'bar baz', PATH: '/bin' }, cwd: dir });
    expect(r.stdout.toString()).toBe(`bar baz||${dir}\n`);
  });

  it("gives children berthd's environment as it was at the first child, plus their own variables", async () => {
    process.env.BERTH_TEST_INHERITED = 'at start';
    const inherited = daemonEnv();
    process.env.BERTH_TEST_INHERITED = 'changed later'; // berthd does not; a later change is not seen
    delete process.env.BERTH_TEST_INHERITED;
    expect(Object.isFrozen(inherited)).toBe(true);
    const r = await sh('echo "$BERTH_TEST_INHERITED|$OWN|$PATH"', { env: { ...daemonEnv(), OWN: 'mine' } });
    expect(r.stdout.toString()).toBe(`at start|mine|${inherited.PATH}\n`);
  });

  it('reports the signal that ended the child, with default dispositions restored', async () => {
    // Node ignores SIGPIPE; a child must get it back, or `yes | head` style pipelines never end.
    const r = await sh('kill -TERM $$');
    expect(r).toMatchObject({ code: null, signal: 'SIGTERM' });
    const pipe = await sh('grep SigIgn /proc/self/status');
    // Signals 1-31 as libuv resets them (32 and 33 belong to glibc and sigfillset leaves them out).
    const ignored = BigInt(`0x${pipe.stdout.toString().trim().split('\t')[1]}`);
    expect(ignored & 0x7fffffffn).toBe(0n);
  });

  it('moves megabytes both ways without deadlocking', async () => {
    const input = Buffer.alloc(4 << 20, 'x');
    const r = await runProcess({ file: '/bin/cat', args: [], env: {}, stdin: input, timeoutMs: 10_000 });
    expect(r.code).toBe(0);
    expect(r.stdout.equals(input)).toBe(true);
  });

  it('keeps at most 16 MiB of a flooding child output and drains the rest', async () => {
    const r = await sh('head -c 20971520 /dev/zero; echo done >&2');
    expect(r).toMatchObject({ code: 0, truncated: true });
    expect(r.stdout.length).toBe(16 << 20);
    expect(r.stderr.toString()).toBe('done\n');
  });

  it('is fine with a child that never reads its stdin', async () => {
    const r = await sh('exit 0', { stdin: Buffer.alloc(1 << 20, 'y') });
    expect(r.code).toBe(0);
  });

  it('kills a child that outlives the timeout, even one that closed its pipes', async () => {
    const started = Date.now();
    const r = await sh('exec >/dev/null 2>&1 </dev/null; sleep 30', { timeoutMs: 300 });
    expect(r).toMatchObject({ timedOut: true, signal: 'SIGKILL' });
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it("kills the child's process group at the timeout: what it started goes too, also after the child exited", async () => {
    // A hung CNI plugin's own children (its sleep, an iptables) were left running under init.
    const alive = (pid: number) => existsSync(`/proc/${pid}`) && !/^State:\s+Z/m.test(readFileSync(`/proc/${pid}/status`, 'utf8'));
    for (const script of ['sleep 1000 & echo $! > grandchild; wait', 'sleep 1000 & echo $! > grandchild; exit 0']) {
      // The timeout must come after the shell started its sleep: a machine too loaded for that
      // within a timeout gets the next, longer one (no assumption on how fast a shell starts).
      let written = false;
      for (const timeoutMs of [3_000, 10_000, 30_000]) {
        rmSync(join(dir, 'grandchild'), { force: true });
        const r = await sh(script, { timeoutMs, cwd: dir });
        expect(r.timedOut).toBe(true);
        written = existsSync(join(dir, 'grandchild')) && readFileSync(join(dir, 'grandchild'), 'utf8').trim() !== '';
        if (written) break;
      }
      expect(written).toBe(true);
      const grandchild = Number(readFileSync(join(dir, 'grandchild'), 'utf8'));
      for (let tries = 0; alive(grandchild) && tries < 200; tries++) await sleep(50);
      expect(alive(grandchild)).toBe(false);
    }
  }, 120_000);

  it('waits for the output of a child whose grandchild still writes, as child_process does', async () => {
    const r = await sh('(sleep 0.2; echo late) & echo early');
    expect(r.code).toBe(0);
    expect(r.stdout.toString()).toBe('early\nlate\n');
  });

  it('rejects with the errno when the binary cannot be started', async () => {
    await expect(runProcess({ file: join(dir, 'missing'), args: [], env: {}, timeoutMs: 1000 })).rejects.toMatchObject({ code: 'ENOENT', syscall: 'posix_spawn' });
    await expect(runProcess({ file: dir, args: [], env: {}, timeoutMs: 1000 })).rejects.toMatchObject({ code: 'EACCES' });
  });

  it('refuses arguments with NUL bytes instead of cutting them', async () => {
    await expect(async () => runProcess({ file: SH, args: ['-c', 'echo a\0b'], env: {}, timeoutMs: 1000 })).rejects.toThrow(/without NUL/);
  });

  it('runs many children at once', async () => {
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) => sh(`echo ${i}`)));
    expect(results.map((r) => r.stdout.toString().trim())).toEqual(Array.from({ length: 40 }, (_, i) => String(i)));
  });
});

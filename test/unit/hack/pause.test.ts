// The pause binary, run for real: it waits with its handlers in place, exits 0 on SIGTERM or
// SIGINT, and as PID 1 of a PID namespace reaps the orphans re-parented to it.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { buildTestImages } from '../../../hack/images/build';

const execFileAsync = promisify(execFile);

/** Polls until `check` yields a value; fails with `what` after a generous deadline (not a timing assert). */
async function eventually<T>(what: string, check: () => Promise<T | undefined>, deadlineMs = 20_000): Promise<T> {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

async function procStatus(pid: number): Promise<Map<string, string> | undefined> {
  const text = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => undefined);
  if (text === undefined) return undefined;
  return new Map(text.split('\n').filter((l) => l.includes(':')).map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 1).trim()]));
}

/** The signals `pid` has handlers for, from /proc (bit n-1 is signal n). */
async function caughtSignals(pid: number): Promise<bigint> {
  const status = await procStatus(pid);
  return BigInt(`0x${status?.get('SigCgt') ?? '0'}`);
}

const bit = (signo: number): bigint => 1n << BigInt(signo - 1);
const HANDLED = bit(2) | bit(15) | bit(17); // SIGINT, SIGTERM, SIGCHLD

async function childrenOf(parent: number): Promise<number[]> {
  const pids: number[] = [];
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const status = await procStatus(Number(name));
    if (status?.get('PPid') === String(parent)) pids.push(Number(name));
  }
  return pids;
}

function exitOf(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (child.exitCode !== null || child.signalCode !== null) {
    return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  }
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
}

let outDir: string;
let pauseBinary: string;
const started: ChildProcess[] = [];

beforeAll(async () => {
  outDir = await mkdtemp(join(tmpdir(), 'berth-pause-'));
  ({ pauseBinary } = await buildTestImages(outDir));
});

afterEach(async () => {
  // Only the processes this file started; --kill-child takes the namespaced pause down with unshare.
  for (const child of started.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await exitOf(child);
    }
  }
});

afterAll(async () => {
  await rm(outDir, { recursive: true, force: true });
});

function start(command: string, args: string[]): ChildProcess {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  started.push(child);
  return child;
}

test.each(['SIGTERM', 'SIGINT'] as const)('waits until %s, then exits 0', async (signal) => {
  const pause = start(pauseBinary, []);
  let stderr = '';
  pause.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const pid = pause.pid ?? -1;
  await eventually('signal handlers installed', async () => ((await caughtSignals(pid)) & HANDLED) === HANDLED || undefined);
  // It printed its warning (not PID 1) and is asleep, not exited.
  await eventually('the not-PID-1 warning', async () => stderr.includes('Warning: pause should be the first process') || undefined);
  await eventually('pause asleep in pause(2)', async () => (await procStatus(pid))?.get('State')?.startsWith('S') || undefined);
  expect(pause.exitCode).toBeNull();
  pause.kill(signal);
  expect(await exitOf(pause)).toEqual({ code: 0, signal: null });
});

test('prints its version with -v and exits 0', async () => {
  const { stdout } = await execFileAsync(pauseBinary, ['-v']);
  expect(stdout).toBe('berth-pause 1\n');
});

test('as PID 1 of a PID namespace it reaps orphans re-parented to it', async () => {
  const unshare = start('unshare', ['--pid', '--fork', '--kill-child', pauseBinary]);
  const pausePid = await eventually('pause forked by unshare', async () => (await childrenOf(unshare.pid ?? -1))[0]);
  await eventually('signal handlers installed', async () => ((await caughtSignals(pausePid)) & HANDLED) === HANDLED || undefined);
  expect((await procStatus(pausePid))?.get('NSpid')).toMatch(/\s1$/);

  // sh starts a sleep in the background and exits: the sleep is orphaned to the namespace's PID 1.
  const nsenter = start('nsenter', ['--target', String(pausePid), '--pid', '--', '/bin/busybox', 'sh', '-c', '/bin/busybox sleep 1000 & exit 0']);
  expect(await exitOf(nsenter)).toEqual({ code: 0, signal: null });
  const orphan = await eventually('the orphan re-parented to pause', async () => (await childrenOf(pausePid))[0]);
  try {
    process.kill(orphan, 'SIGKILL');
    // Without a reaper it would stay a zombie in /proc for as long as pause lives.
    await eventually(`orphan ${orphan} reaped`, async () => ((await procStatus(orphan)) === undefined ? true : undefined));
  } finally {
    try {
      process.kill(orphan, 'SIGKILL'); // ours: nsenter started it on our behalf
    } catch {
      // already gone
    }
  }
  expect((await procStatus(pausePid))?.get('State')).toMatch(/^S/);
  process.kill(pausePid, 'SIGTERM');
  expect(await exitOf(unshare)).toEqual({ code: 0, signal: null });
});

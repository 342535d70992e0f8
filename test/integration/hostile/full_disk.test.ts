// A full or failing disk never takes berthd down (issue 13, item 3). Small tmpfs instances stand in
// for the disks: a pod's log directory, and berthd's whole root (content store, snapshots, SQLite).
// Each is filled to ENOSPC with a filler file, and the filler's removal is "space freed". Also the
// last-resort policy for errors nothing caught (cmd/berthd/crash_policy.ts), through injected faults.
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import { startBerthd, runBerthdToExit } from '../../harness/daemon';
import { criClient } from '../../harness/cri_client';
import { testImages } from '../../harness/images';
import { fillUp, freeBytes, mountTmpfs, unmountTmpfs } from '../../harness/tmpfs';
import { createBerthEnv, deadline, SLEEPER, TICKER, type BerthEnv } from '../recovery/berth_env';
import { dbRows, leaks } from '../recovery/host_state';

jest.setTimeout(300_000);

const RECORD = /^\S+ (stdout|stderr) [PF] (.*)$/;

/** The CRI log's records as [stream, tag+content] pairs; fails on any line that is not a whole record. */
function records(path: string): string[] {
  if (!existsSync(path)) return [];
  const text = readFileSync(path, 'utf8');
  if (text === '') return [];
  expect(text.endsWith('\n')).toBe(true);
  return text
    .slice(0, -1)
    .split('\n')
    .map((line) => {
      expect(line).toMatch(RECORD);
      return line.match(RECORD)![2]!;
    });
}

const maxTick = (path: string) => Math.max(0, ...records(path).map((r) => Number(/^tick (\d+)$/.exec(r)?.[1] ?? 0)));

async function until<T>(what: string, probe: () => T | undefined | false | Promise<T | undefined | false>): Promise<T> {
  const giveUp = Date.now() + 120_000;
  for (;;) {
    const v = await probe();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > giveUp) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const errorCode = (err: unknown) => (err as grpc.ServiceError | undefined)?.code;

async function rejection(p: Promise<unknown>): Promise<grpc.ServiceError> {
  return p.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (err: unknown) => err as grpc.ServiceError,
  );
}

describe('a full log disk', () => {
  let env: BerthEnv;
  const pod = 'full-logs';
  let logDir: string;
  beforeAll(async () => {
    env = await createBerthEnv();
    logDir = join(env.scratch, pod);
    mountTmpfs(logDir, '256k');
    await env.start();
  });
  afterAll(async () => {
    await env?.close();
    unmountTmpfs(logDir);
  });

  it('drops lines, never berthd: containers keep running or exit normally, a restart survives it, and lines are written again once space is freed', async () => {
    const { podId, config } = await env.runPod(pod);
    const filler = join(logDir, 'filler');
    writeFileSync(filler, Buffer.alloc(128 * 1024));

    // ~590 KB of output into what is left of 256 KB. Had berthd stopped reading, seq would block
    // on its full pipe forever instead of exiting.
    const flooder = await env.create(podId, config, 'flooder', ['seq', '1', '100000']);
    await env.client.runtime.StartContainer({ container_id: flooder }, deadline());
    const exited = await env.waitState(flooder, 'CONTAINER_EXITED');
    expect(exited.exit_code).toBe(0);
    expect(freeBytes(logDir)).toBe(0);
    const flooded = records(join(logDir, 'flooder', '0.log'));
    expect(flooded[0]).toBe('1');
    expect(flooded.length).toBeLessThan(100000);
    expect(env.daemon.stderr()).toContain('cannot write container log; dropping its output until writes succeed again');

    const ticker = await env.create(podId, config, 'ticker', TICKER);
    await env.client.runtime.StartContainer({ container_id: ticker }, deadline());
    await env.waitState(ticker, 'CONTAINER_RUNNING');
    const tickerLog = join(logDir, 'ticker', '0.log');

    // Restarted with the disk still full: recovery reattaches the ticker's output and drops it.
    await env.stop();
    await env.start();
    await env.client.runtime.Version({});
    expect((await env.status(ticker)).state).toBe('CONTAINER_RUNNING');
    expect((await env.status(flooder)).state).toBe('CONTAINER_EXITED');
    const beforeFree = maxTick(tickerLog);

    rmSync(filler);
    // The same file, written again: later ticks than any that fitted before.
    const resumed = await until('ticks in the log after freeing space', () => maxTick(tickerLog) > beforeFree + 2 && maxTick(tickerLog));
    expect(resumed).toBeGreaterThan(beforeFree);
    // berthd logs it right after the first record that fit, but its stderr reaches us through a pipe
    // whose data may come in after this process has read the file (seen on a loaded machine).
    await until('"container log writable again" in berthd\'s log', () => env.daemon.stderr().includes('container log writable again'));
    expect((await env.status(ticker)).state).toBe('CONTAINER_RUNNING');
    await env.client.runtime.StopContainer({ container_id: ticker, timeout: 10 }, deadline());
  });
});

describe('a full root disk (content store, snapshots, metadata)', () => {
  let env: BerthEnv;
  let root: string;
  let layers3: string;
  beforeAll(async () => {
    layers3 = (await testImages()).layers3Oci;
    env = await createBerthEnv();
    root = join(env.dir, 'root');
    // Holds the test images (~2 MB) and, once, the 3-layer image (~57 MB of blobs, as much unpacked).
    mountTmpfs(root, '160m');
    await env.start();
  });
  afterAll(async () => {
    await env?.close();
    unmountTmpfs(root);
  });

  const filler = () => join(root, 'filler');
  /** leaks() of the env, but for the tmpfs this test mounted as the root. */
  const leaked = () => leaks(env.host()).filter((l) => l !== `mount ${root}`);
  /** Fills the root up, then frees `leave` bytes of it. */
  async function fillLeaving(leave: number): Promise<void> {
    // Removed snapshots are deleted in the background: once that is done, nothing frees space.
    const trashes = [join(root, 'trash'), join(root, 'overlayfs', 'trash')];
    await until('the trash emptied', () => trashes.every((t) => !existsSync(t) || readdirSync(t).length === 0));
    fillUp(root);
    if (leave > 0) {
      const size = readFileSync(filler()).length;
      rmSync(filler());
      writeFileSync(filler(), Buffer.alloc(size - leave));
    }
  }

  function onDisk() {
    const rows = dbRows(root);
    return {
      snapshotDirs: readdirSync(join(root, 'overlayfs', 'snapshots')).sort(),
      snapshotRows: rows.snapshots.map((s) => String(s.id)).sort(),
      blobs: readdirSync(join(root, 'content', 'blobs', 'sha256')).sort(),
      ingest: readdirSync(join(root, 'content', 'ingest')),
    };
  }

  async function importFails(leave: number): Promise<grpc.ServiceError> {
    const before = onDisk();
    await fillLeaving(leave);
    try {
      const err = await rejection(env.client.admin.ImportImage({ path: layers3, name: '' }, deadline()));
      expect(err.details).toMatch(/ENOSPC|no space left/);
      await env.client.runtime.Version({});
      const after = onDisk();
      expect(after.ingest).toEqual([]);
      expect(after.blobs).toEqual(before.blobs);
      expect(after.snapshotRows).toEqual(before.snapshotRows);
      // Removed extract snapshots go through the trash, emptied in the background.
      await until('removed snapshot dirs gone', () => readdirSync(join(root, 'overlayfs', 'snapshots')).sort().join() === before.snapshotDirs.join());
      return err;
    } finally {
      rmSync(filler(), { force: true });
    }
  }

  it('an import whose blobs do not fit fails with ResourceExhausted and leaves no partial blob', async () => {
    const err = await importFails(1024 * 1024);
    expect(errorCode(err)).toBe(grpc.status.RESOURCE_EXHAUSTED);
    const { images } = await env.client.image.ListImages({});
    expect(images.map((i) => i.repo_tags).flat()).not.toContain(expect.stringContaining('layers3'));
  });

  it('an import whose layers do not unpack fails cleanly too, and the same import then succeeds', async () => {
    // Room for the ~57 MB of blobs, not for unpacking them as well.
    await importFails(62 * 1024 * 1024);
    const ok = await env.client.admin.ImportImage({ path: layers3, name: '' }, deadline());
    expect(ok.images.length).toBeGreaterThan(0);
    for (const image of ok.images) await env.client.image.RemoveImage({ image: { image: image.id } }, deadline());
  });

  it('RunPodSandbox and CreateContainer on a full root answer an error and leave no half record', async () => {
    await fillLeaving(0);
    try {
      const err = await rejection(env.runPod('no-room'));
      expect(errorCode(err)).toBe(grpc.status.RESOURCE_EXHAUSTED);
      expect((await env.client.runtime.ListPodSandbox({})).items).toEqual([]);
      expect(leaked()).toEqual([]);
    } finally {
      rmSync(filler(), { force: true });
    }

    const { podId, config } = await env.runPod('room-again');
    await fillLeaving(0);
    try {
      const err = await rejection(env.create(podId, config, 'no-room', ['true']));
      expect(errorCode(err)).toBe(grpc.status.RESOURCE_EXHAUSTED);
      expect((await env.client.runtime.ListContainers({})).containers).toEqual([]);
      await env.client.runtime.Version({});
      expect(leaked()).toEqual([]);
    } finally {
      rmSync(filler(), { force: true });
    }
    const id = await env.create(podId, config, 'room-again', ['true']);
    expect((await env.client.runtime.ListContainers({})).containers.map((c) => c.id)).toEqual([id]);
    await env.removeAll();
  });

  it('CreateContainers failing on a nearly full root leave no snapshot once space is back (the removal the database refused is retried)', async () => {
    const { podId, config } = await env.runPod('creates-while-full');
    await fillLeaving(256 * 1024);
    let results: PromiseSettledResult<string>[];
    try {
      results = await Promise.allSettled(Array.from({ length: 10 }, (_, i) => env.create(podId, config, `c${i}`, SLEEPER)));
    } finally {
      rmSync(filler(), { force: true });
    }
    expect(results.some((r) => r.status === 'rejected')).toBe(true);
    // Every active snapshot has its container again, without a restart.
    await until('no snapshot without a record', () => leaked().length === 0);
    await env.client.runtime.RemovePodSandbox({ pod_sandbox_id: podId }, deadline());
    expect(leaked()).toEqual([]);
  });

  it('an exit while the root is full is recorded once space is back, with its code, and the container can go', async () => {
    const { podId, config } = await env.runPod('exit-while-full');
    const id = await env.create(podId, config, 'victim', SLEEPER);
    await env.client.runtime.StartContainer({ container_id: id }, deadline());
    await fillLeaving(0);
    try {
      // The kill lands; the exit cannot be written, so the stop waits for it (up to its deadline).
      const err = await rejection(env.client.runtime.StopContainer({ container_id: id, timeout: '0' }, deadline(5_000)));
      expect(errorCode(err)).toBe(grpc.status.DEADLINE_EXCEEDED);
      expect(env.daemon.stderr()).toMatch(/recording the container exit failed; retrying.*(disk is full|no space)/);
    } finally {
      rmSync(filler(), { force: true });
    }
    const exited = await until('the exit recorded', async () => {
      const status = await env.status(id);
      return status.state === 'CONTAINER_EXITED' && status;
    });
    expect([exited.exit_code, exited.reason]).toEqual([137, 'Error']);
    await env.client.runtime.RemovePodSandbox({ pod_sandbox_id: podId }, deadline());
    expect(leaked()).toEqual([]);
  });
});

describe('errors nothing caught', () => {
  it.each([
    ['uncaught_exception', 'uncaught exception'],
    ['unhandled_rejection', 'unhandled rejection'],
  ])('%s: logged at error level with its stack, and berthd keeps serving', async (fault, msg) => {
    const daemon = await startBerthd({ env: { BERTH_INJECT_FAULT: fault } });
    try {
      const logged = await until(msg, () =>
        daemon
          .stderr()
          .split('\n')
          .filter((l) => l.startsWith('{'))
          .map((l) => JSON.parse(l) as Record<string, unknown>)
          .find((l) => l.msg === msg),
      );
      expect(logged).toMatchObject({ level: 'error', error: `injected fault: ${msg}`, fatal: false });
      expect(logged.stack).toContain('fault_injection');
      const c = criClient(daemon.socket);
      try {
        await expect(c.runtime.Version({})).resolves.toMatchObject({ runtime_name: 'berth' });
      } finally {
        c.close();
      }
    } finally {
      expect(await daemon.stop()).toEqual({ code: 0, signal: null });
    }
  });

  it('a metadata transaction that could not be rolled back makes berthd exit 1, saying why', async () => {
    const run = await runBerthdToExit({ env: { BERTH_INJECT_FAULT: 'stuck_transaction' } });
    expect(run.code).toBe(1);
    const lines = run.stderr.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toContainEqual(expect.objectContaining({ level: 'error', msg: 'uncaught exception', fatal: true }));
    expect(lines).toContainEqual(expect.objectContaining({ level: 'error', msg: expect.stringMatching(/^exiting: /) }));
  });
});

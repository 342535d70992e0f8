// The Runtime v2 client against the real containerd-shim-runc-v2 and runc, on a real overlay rootfs.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TaskIO } from '../../../internal/cio/task_io';
import { BerthError } from '../../../internal/errdefs/errors';
import { createLogger, type LogFields } from '../../../internal/log/logger';
import type { TaskEvent } from '../../../internal/events/types';
import { RuntimeV2 } from '../../../internal/runtime/v2/runtime';
import { socketPathOf } from '../../../internal/ttrpc/client';
import { cgroupParentLeftovers } from '../../harness/oci_spec';
import { cgroupExists, isAlive, makeWorld, mountsUnder, shimPids, type ShimWorld } from './fixture';

jest.setTimeout(90_000);

let world: ShimWorld;

beforeEach(async () => {
  world = await makeWorld();
});

afterEach(async () => {
  await world.teardown();
  expect(cgroupParentLeftovers(world.cgroupParent)).toEqual([]);
});

function collect(stream: NodeJS.ReadableStream | undefined): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    if (!stream) return resolve('');
    stream.setEncoding('utf8');
    stream.on('data', (d: string) => (text += d));
    stream.on('end', () => resolve(text));
    stream.on('error', reject);
  });
}

/** Events for one container until (and including) the first of `last`. */
async function eventsUntil(containerId: string, last: TaskEvent['kind'], start: () => Promise<void>): Promise<TaskEvent[]> {
  const stream = world.bus.stream({ namespace: world.namespace, containerId });
  try {
    await start();
    const seen: TaskEvent[] = [];
    for (;;) {
      const e = await stream.next();
      seen.push(e);
      if (e.kind === last) return seen;
    }
  } finally {
    stream.close();
  }
}

function expectNothingLeft(shimAddress: string | undefined, containerPids: number[] = []): void {
  expect(mountsUnder(world.root)).toEqual([]);
  expect(shimPids(world.namespace)).toEqual([]);
  for (const pid of containerPids) expect(isAlive(pid)).toBe(false);
  if (shimAddress) expect(existsSync(socketPathOf(shimAddress))).toBe(false);
}

describe('one task', () => {
  it('runs to exit 3 with stdout/stderr through FIFOs, events in order, and leaves nothing after delete', async () => {
    const io = world.io('t1');
    const out = collect(io.stdout);
    const err = collect(io.stderr);
    let task!: Awaited<ReturnType<ShimWorld['createTask']>>;
    let waited!: Promise<{ exitStatus: number }>;
    const events = await eventsUntil('t1', 'TaskDelete', async () => {
      task = await world.createTask('t1', { args: ['sh', '-c', 'echo out; echo err >&2; exit 3'] }, io);
      expect(task.pid).toBeGreaterThan(0);
      expect((await task.state()).status).toBe('CREATED');
      waited = task.wait();
      await task.start();
      expect((await waited).exitStatus).toBe(3);
      await io.done();
      const exit = await task.delete();
      expect(exit.exitStatus).toBe(3);
    });
    expect(await out).toBe('out\n');
    expect(await err).toBe('err\n');
    expect(events.map((e) => e.kind)).toEqual(['TaskCreate', 'TaskStart', 'TaskExit', 'TaskDelete']);
    const exitEvent = events.find((e) => e.kind === 'TaskExit');
    expect(exitEvent?.kind === 'TaskExit' && exitEvent.event.exit_status).toBe(3);
    expect(events[0].namespace).toBe(world.namespace);

    expect(existsSync(task.bundle.path)).toBe(false);
    expect(cgroupExists(world.cgroupParent, 't1')).toBe(false);
    expectNothingLeft(task.shimAddress, [task.pid]);
    expect(world.runtime.get(world.namespace, 't1')).toBeUndefined();
  });

  it('execs a process into a running task and reads its output', async () => {
    const task = await world.createTask('t-exec', { args: ['sleep', '1000'] });
    await task.start();
    const io = world.io('t-exec-e1');
    const out = collect(io.stdout);
    const exec = await task.exec('e1', { args: ['sh', '-c', 'echo from exec; exit 7'], env: ['PATH=/bin'], cwd: '/', user: { uid: 0, gid: 0 } }, io.paths);
    const waited = exec.wait();
    waited.catch(() => undefined); // awaited below; keep a failed start from crashing the worker
    expect(await exec.start()).toBeGreaterThan(0);
    // The shim opens an exec's FIFOs at Start (an init process's at Create).
    io.releaseKeepers();
    expect((await waited).exitStatus).toBe(7);
    expect(await out).toBe('from exec\n');
    await exec.delete();
    await task.kill(9);
    expect((await task.wait()).exitStatus).toBe(137);
    const address = task.shimAddress;
    await task.delete();
    expectNothingLeft(address, [task.pid]);
  });
});

describe('signals', () => {
  it('SIGTERM ends a non-init sleep with status 143', async () => {
    // Without its own PID namespace sleep is not an init process, so SIGTERM's default action applies.
    const spec = world.spec('t-term', { args: ['sleep', '1000'] });
    const linux = spec.linux as { namespaces: Array<{ type: string }> };
    linux.namespaces = linux.namespaces.filter((n) => n.type !== 'pid');
    const task = await world.runtime.createTask({
      id: 't-term',
      namespace: world.namespace,
      spec,
      rootfs: world.overlay('t-term'),
      runcOptions: { root: world.runcRoot },
    });
    const waited = task.wait();
    await task.start();
    expect((await task.state()).status).toBe('RUNNING');
    await task.kill(15);
    expect((await waited).exitStatus).toBe(143);
    const address = task.shimAddress;
    await task.delete();
    expectNothingLeft(address, [task.pid]);
  });

  it('kill all reaches every process of the container', async () => {
    const task = await world.createTask('t-all', { args: ['sh', '-c', 'sleep 1000 & sleep 1000 & wait'] });
    const waited = task.wait();
    await task.start();
    // Wait until both children are there (pids grows from 1 to 3).
    let pids = await task.pids();
    while (pids.length < 3) {
      await new Promise((r) => setTimeout(r, 20));
      pids = await task.pids();
    }
    const all = pids.map((p) => p.pid);
    await task.kill(9, { all: true });
    expect((await waited).exitStatus).toBe(137);
    const address = task.shimAddress;
    await task.delete();
    expectNothingLeft(address, all);
  });
});

describe('shim sharing', () => {
  it('gives tasks with the same sandbox-id one shim and another sandbox its own', async () => {
    const sandboxAnn = (s: string) => ({ 'io.kubernetes.cri.sandbox-id': s });
    const a = await world.createTask('pod-a', { args: ['sleep', '1000'], annotations: sandboxAnn('pod-a') });
    const b = await world.createTask('ctr-b', { args: ['sleep', '1000'], annotations: sandboxAnn('pod-a') });
    const c = await world.createTask('pod-c', { args: ['sleep', '1000'], annotations: sandboxAnn('pod-c') });
    for (const t of [a, b, c]) await t.start();

    expect(b.shimAddress).toBe(a.shimAddress);
    expect(c.shimAddress).not.toBe(a.shimAddress);
    const [ia, ib, ic] = await Promise.all([a.connectInfo(), b.connectInfo(), c.connectInfo()]);
    expect(ib.shimPid).toBe(ia.shimPid);
    expect(ic.shimPid).not.toBe(ia.shimPid);
    // The shim wrote the same address into both bundles (the runc shim 1.6 writes no shim.pid).
    expect(readFileSync(join(b.bundle.path, 'address'), 'utf8')).toBe(readFileSync(join(a.bundle.path, 'address'), 'utf8'));
    expect(shimPids(world.namespace).sort()).toEqual([ia.shimPid, ic.shimPid].sort());
    expect(world.runtime.shims.connectionCount).toBe(2); // one ttRPC connection per shim

    // Deleting the pod's first task keeps the shared shim serving the second.
    await a.kill(9);
    await a.wait();
    await a.delete();
    expect(isAlive(ia.shimPid)).toBe(true);
    expect((await b.state()).status).toBe('RUNNING');

    await b.kill(9);
    expect((await b.wait()).exitStatus).toBe(137);
    await b.delete();
    await c.kill(9);
    await c.wait();
    await c.delete();
    expectNothingLeft(a.shimAddress, [a.pid, b.pid, c.pid]);
    expectNothingLeft(c.shimAddress);
  });

  it('starts a new shim for a pod whose shim died instead of joining the dead one', async () => {
    const sandboxAnn = { 'io.kubernetes.cri.sandbox-id': 'pod-x' };
    const pod = await world.createTask('pod-x', { args: ['sleep', '1000'], annotations: sandboxAnn });
    await pod.start();
    const { shimPid } = await pod.connectInfo();
    const waited = pod.wait();
    process.kill(shimPid, 'SIGKILL');
    expect((await waited).exitStatus).toBe(137);
    await world.runtime.shims.settled();

    // pod-x's bundle still names the dead shim's address: a new task of the group must not use it.
    const ctr = await world.createTask('ctr-y', { args: ['sleep', '1000'], annotations: sandboxAnn });
    await ctr.start();
    const info = await ctr.connectInfo();
    expect(info.shimPid).not.toBe(shimPid);
    expect(existsSync(ctr.bundle.logPath)).toBe(true); // the new shim runs in ctr-y's bundle and logs there
    expect(isAlive(info.shimPid)).toBe(true);
    await ctr.kill(9);
    await ctr.wait();
    await ctr.delete();
    await pod.delete();
    expectNothingLeft(ctr.shimAddress, [pod.pid, ctr.pid]);
  });
});

describe('shim log', () => {
  it("reads the log FIFO of the bundle its pod's shim was started in, none for a task that joined it, also after a restart", async () => {
    const lines: LogFields[] = [];
    const config = { ...world.runtimeConfig, logger: createLogger({ level: 'info', write: (l) => void lines.push(JSON.parse(l) as LogFields) }) };
    const shimLines = (taskId: string) => lines.filter((l) => l.taskId === taskId && /^shim: /.test(String(l.msg))).length;
    const logged = async (taskId: string) => {
      for (let i = 0; i < 500 && !lines.some((l) => l.taskId === taskId && /^shim: loading plugin/.test(String(l.msg))); i++) {
        await new Promise((r) => setTimeout(r, 10));
      }
      return shimLines(taskId);
    };
    const runtime = new RuntimeV2(config);
    const annotations = { 'io.kubernetes.cri.sandbox-id': 'pod-l' };
    const create = (id: string) =>
      runtime.createTask({
        id,
        namespace: world.namespace,
        spec: world.spec(id, { args: ['sleep', '1000'], annotations }),
        rootfs: world.overlay(id),
        runcOptions: { root: world.runcRoot },
      });
    const pod = await create('pod-l');
    const ctr = await create('ctr-l');
    await pod.start();
    await ctr.start();
    expect(ctr.shimAddress).toBe(pod.shimAddress);
    expect(existsSync(pod.bundle.logPath)).toBe(true);
    expect(existsSync(ctr.bundle.logPath)).toBe(false);
    // The shim logs as it starts ("loading plugin ..."): those lines come tagged with the pod's task.
    expect(await logged('pod-l')).toBeGreaterThan(0);
    expect(shimLines('ctr-l')).toBe(0);
    await runtime.close();

    const again = new RuntimeV2(config);
    const loaded = await again.loadAll();
    expect(loaded.map((t) => [t.id, t.lost, t.pid]).sort()).toEqual([
      ['ctr-l', false, ctr.pid],
      ['pod-l', false, pod.pid],
    ]);
    for (const t of loaded) {
      const waited = t.wait();
      await t.kill(9);
      expect((await waited).exitStatus).toBe(137);
      await t.delete();
    }
    await again.close();
    expectNothingLeft(pod.shimAddress, [pod.pid, ctr.pid]);
  });
});

describe('failures', () => {
  it('notices a shim killed with SIGKILL, runs delete, unmounts the rootfs and reports the exit', async () => {
    const task = await world.createTask('t-dead', { args: ['sleep', '1000'] });
    await task.start();
    const { shimPid } = await task.connectInfo();
    expect(mountsUnder(world.root)).toEqual([task.bundle.rootfs]);

    const exitEvent = world.bus.stream({ containerId: 't-dead', kinds: ['TaskExit'] });
    const waited = task.wait();
    process.kill(shimPid, 'SIGKILL');
    const exit = await waited;
    expect(exit.exitStatus).toBe(137);
    const event = await exitEvent.next();
    exitEvent.close();
    expect(event.kind === 'TaskExit' && event.event.exit_status).toBe(137);
    expect(task.lost).toBe(true);
    expect(mountsUnder(world.root)).toEqual([]);
    expect(isAlive(task.pid)).toBe(false);

    const address = task.shimAddress;
    await task.delete();
    expect(existsSync(task.bundle.path)).toBe(false);
    expectNothingLeft(address);
  });

  it('refuses a runtime whose shim binary is not installed, naming both, and writes nothing', async () => {
    const attempt = world.runtime.createTask({
      id: 't-nobin',
      namespace: world.namespace,
      spec: world.spec('t-nobin', { args: ['true'] }),
      rootfs: world.overlay('t-nobin'),
      runtimeName: 'io.containerd.nosuch.v9',
    });
    await expect(attempt).rejects.toThrow(/io\.containerd\.nosuch\.v9.*containerd-shim-nosuch-v9/);
    await expect(attempt).rejects.toMatchObject({ kind: 'NotFound' });
    const abs = world.runtime.createTask({
      id: 't-nobin',
      namespace: world.namespace,
      spec: world.spec('t-nobin', { args: ['true'] }),
      rootfs: [],
      runtimeName: '/nonexistent/containerd-shim-x-v2',
    });
    await expect(abs).rejects.toMatchObject({ kind: 'NotFound' });
    expect(existsSync(join(world.runtimeConfig.stateDir, 'io.containerd.runtime.v2.task', world.namespace, 't-nobin'))).toBe(false);
    expectNothingLeft(undefined);
  });

  it('fails Create for a rootfs that cannot be mounted and undoes bundle, shim and socket', async () => {
    const attempt = world.runtime.createTask({
      id: 't-badmount',
      namespace: world.namespace,
      spec: world.spec('t-badmount', { args: ['true'] }),
      rootfs: [{ type: 'overlay', source: 'overlay', target: '', options: [`lowerdir=${join(world.root, 'missing')}`] }],
      runcOptions: { root: world.runcRoot },
    });
    await expect(attempt).rejects.toThrow(/create task .*t-badmount/);
    await expect(attempt).rejects.toBeInstanceOf(BerthError);
    expect(existsSync(join(world.runtimeConfig.stateDir, 'io.containerd.runtime.v2.task', world.namespace, 't-badmount'))).toBe(false);
    expectNothingLeft(undefined);
  });

  it('fails Create for a process binary missing from the rootfs and leaves nothing behind', async () => {
    const attempt = world.createTask('t-noexec', { args: ['/bin/does-not-exist'] });
    await expect(attempt).rejects.toThrow(/does-not-exist/);
    expect(existsSync(join(world.runtimeConfig.stateDir, 'io.containerd.runtime.v2.task', world.namespace, 't-noexec'))).toBe(false);
    expect(cgroupExists(world.cgroupParent, 't-noexec')).toBe(false);
    expectNothingLeft(undefined);
  });
});

describe('restart recovery', () => {
  it('reconnects to a running task through the bundle address and re-attaches its output FIFOs', async () => {
    const first = world.io('t-reload');
    const task = await world.createTask(
      't-reload',
      { args: ['sh', '-c', 'trap "echo bye; exit 5" TERM; echo hello; while true; do sleep 1; done'] },
      first,
    );
    const hello = new Promise<string>((resolve) => first.stdout?.once('data', (d: Buffer) => resolve(d.toString())));
    await task.start();
    expect(await hello).toBe('hello\n');
    const { shimPid } = await task.connectInfo();
    // berth goes away: connections and our FIFO ends close, the shim and container keep running.
    await world.runtime.close();
    first.close();

    const again = new RuntimeV2(world.runtimeConfig);
    const [loaded] = await again.loadAll();
    expect(loaded.id).toBe('t-reload');
    expect(loaded.lost).toBe(false);
    expect(loaded.pid).toBe(task.pid);
    expect(loaded.statusWhenLoaded).toBe('RUNNING');
    expect((await loaded.state()).status).toBe('RUNNING');
    expect((await loaded.connectInfo()).shimPid).toBe(shimPid);

    const io = TaskIO.attach(first.dir, first.paths);
    const out = collect(io.stdout);
    const waited = loaded.wait();
    await loaded.kill(15);
    expect((await waited).exitStatus).toBe(5);
    expect(await out).toBe('bye\n');
    io.close();
    await loaded.delete();
    await again.close();
    expectNothingLeft(loaded.shimAddress, [task.pid]);
  });

  it('learns from the one reconnect round trip that a task exited while nobody was connected', async () => {
    const first = world.io('t-gone');
    const task = await world.createTask('t-gone', { args: ['sh', '-c', 'exit 7'] }, first);
    await task.start();
    // berth goes away; the exit stays in the shim until someone deletes the task.
    await world.runtime.close();
    first.close();
    const shimState = new RuntimeV2(world.runtimeConfig); // a look from outside: it has exited by now
    const [probe] = await shimState.loadAll();
    expect((await probe.wait()).exitStatus).toBe(7);
    await shimState.close();

    const again = new RuntimeV2(world.runtimeConfig);
    const [loaded] = await again.loadAll();
    expect(loaded.lost).toBe(false);
    expect(loaded.pid).toBe(task.pid);
    expect(loaded.statusWhenLoaded).toBe('STOPPED');
    expect((await loaded.wait()).exitStatus).toBe(7);
    await loaded.delete();
    await again.close();
    expectNothingLeft(loaded.shimAddress, [task.pid]);
  });
});

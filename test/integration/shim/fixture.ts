// Per-test world for shim tests: temp root, events server, RuntimeV2, namespace, cgroup parent,
// busybox lower dir, plus leak probes and an emergency teardown that only touches what this test
// created (its namespace's shims, its runc root, mounts under its temp root, its cgroup parent).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Mount } from '../../../internal/api/gen/containerd/types/Mount';
import { TaskIO } from '../../../internal/cio/task_io';
import { EventBus } from '../../../internal/events/bus';
import { EventsServer } from '../../../internal/events/server';
import { RuntimeV2 } from '../../../internal/runtime/v2/runtime';
import { socketPathOf } from '../../../internal/ttrpc/client';
import type { Task } from '../../../internal/runtime/v2/task';
import { buildBusyboxRootfs } from '../../harness/busybox_rootfs';
import { removeCgroupParent, testSpec, type TestSpecOptions } from '../../harness/oci_spec';

export interface ShimWorld {
  root: string;
  namespace: string;
  cgroupParent: string;
  bus: EventBus;
  events: EventsServer;
  runtime: RuntimeV2;
  runtimeConfig: ConstructorParameters<typeof RuntimeV2>[0];
  lower: string;
  runcRoot: string;
  /** One overlay mount over the busybox lower dir with fresh upper/work dirs. */
  overlay(id: string): Mount[];
  spec(id: string, o: Omit<TestSpecOptions, 'id' | 'cgroupParent'>): Record<string, unknown>;
  io(id: string): TaskIO;
  createTask(id: string, o: Omit<TestSpecOptions, 'id' | 'cgroupParent'>, io?: TaskIO): Promise<Task>;
  teardown(): Promise<void>;
}

const rand = () => Math.random().toString(36).slice(2, 8);

export async function makeWorld(): Promise<ShimWorld> {
  const root = mkdtempSync(join(tmpdir(), 'berth-shim-'));
  const namespace = `t-${rand()}`;
  const cgroupParent = `/berth-test-${rand()}`;
  const lower = buildBusyboxRootfs(join(root, 'busybox'));
  const runcRoot = join(root, 'runc');
  const bus = new EventBus();
  const events = new EventsServer(bus);
  await events.listen(join(root, 'events.sock'));
  const runtimeConfig = {
    stateDir: join(root, 'state'),
    address: join(root, 'berth.sock'),
    ttrpcAddress: join(root, 'events.sock'),
    events: bus,
  };
  const runtime = new RuntimeV2(runtimeConfig);
  const ios: TaskIO[] = [];
  const shimAddresses = new Set<string>();
  const world: ShimWorld = {
    root,
    namespace,
    cgroupParent,
    bus,
    events,
    runtime,
    runtimeConfig,
    lower,
    runcRoot,
    overlay(id) {
      const upper = join(root, 'snap', id, 'upper');
      const work = join(root, 'snap', id, 'work');
      mkdirSync(upper, { recursive: true });
      mkdirSync(work, { recursive: true });
      return [{ type: 'overlay', source: 'overlay', target: '', options: [`workdir=${work}`, `upperdir=${upper}`, `lowerdir=${lower}`] }];
    },
    spec: (id, o) => testSpec({ ...o, id, cgroupParent }),
    io(id) {
      const io = TaskIO.create(join(root, 'fifo', id), id, {});
      ios.push(io);
      return io;
    },
    async createTask(id, o, io) {
      const task = await runtime.createTask({
        id,
        namespace,
        spec: world.spec(id, o),
        rootfs: world.overlay(id),
        stdio: io?.paths,
        runcOptions: { root: runcRoot },
      });
      io?.releaseKeepers();
      if (task.shimAddress) shimAddresses.add(task.shimAddress);
      return task;
    },
    async teardown() {
      for (const io of ios) io.remove();
      for (const t of runtime.list()) if (t.shimAddress) shimAddresses.add(t.shimAddress);
      await runtime.close();
      await events.close();
      emergencyCleanup(world, shimAddresses);
      rmSync(root, { recursive: true, force: true });
    },
  };
  return world;
}

/** Whether a PID names a live (non-zombie) process; PID 1 here does not reap, so zombies linger. */
export function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

/** Live shim processes serving this test's namespace. */
export function shimPids(namespace: string): number[] {
  const out: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let argv: string[];
    try {
      argv = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
    } catch {
      continue;
    }
    const i = argv.indexOf('-namespace');
    if (argv[0]?.endsWith('containerd-shim-runc-v2') && i >= 0 && argv[i + 1] === namespace && isAlive(Number(entry))) {
      out.push(Number(entry));
    }
  }
  return out;
}

export function mountsUnder(root: string): string[] {
  return readFileSync('/proc/self/mountinfo', 'utf8')
    .split('\n')
    .map((l) => l.split(' ')[4])
    .filter((p): p is string => p !== undefined && p.startsWith(root));
}

export function cgroupExists(parent: string, id: string): boolean {
  return existsSync(join('/sys/fs/cgroup/memory', parent, id));
}

/** Last-resort cleanup after a failed test: only this world's processes, mounts and cgroups. */
function emergencyCleanup(world: ShimWorld, shimAddresses: Set<string>): void {
  for (const pid of shimPids(world.namespace)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
  const nsRoot = join(world.runcRoot, world.namespace);
  if (existsSync(nsRoot)) {
    for (const id of readdirSync(nsRoot)) spawnSync('runc', ['--root', nsRoot, 'delete', '--force', id]);
  }
  for (const m of mountsUnder(world.root).reverse()) spawnSync('umount', ['-l', m]);
  removeCgroupParent(world.cgroupParent);
  // Sockets of shims we killed above (their shims are dead, so nobody else can own them).
  for (const address of shimAddresses) {
    if (!shimPids(world.namespace).length) rmSync(socketPathOf(address), { force: true });
  }
}

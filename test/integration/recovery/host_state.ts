// What a berthd left on the host, looked at the way an operator would: the metadata DB (a copy,
// beside the live daemon), mounts, network namespace files, task bundles, pod/container dirs,
// snapshots, shims and cgroups. leaks() lists everything that no sandbox/container row owns.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cgroupPids, leafCgroups } from '../../harness/cgroups';
import { readDaemonDb } from '../../harness/daemon_db';

export { cgroupDirs, cgroupPids, leafCgroups } from '../../harness/cgroups';

export interface SandboxRow {
  id: string;
  name: string;
  state: string;
  netnsPath: string;
}

export interface ContainerRow {
  id: string;
  name: string;
  sandboxId: string;
  status: { pid: number; startedAt: string; finishedAt: string; exitCode: number; reason: string };
}

export interface SnapshotRow {
  key: string;
  id: number;
  kind: string;
}

export interface DbRows {
  sandboxes: SandboxRow[];
  containers: ContainerRow[];
  snapshots: SnapshotRow[];
}

/** The rows of <root>/metadata.db, read from a copy (the daemon holds the file). */
export function dbRows(root: string): DbRows {
  return readDaemonDb(root, (db) => {
    const sandboxes = (db.prepare('SELECT id, name, metadata, status FROM sandboxes').all() as Record<string, string>[]).map((r) => ({
      id: r.id!,
      name: r.name!,
      state: (JSON.parse(r.status!) as { state: string }).state,
      netnsPath: (JSON.parse(r.metadata!) as { netnsPath: string }).netnsPath,
    }));
    const containers = (db.prepare('SELECT id, name, sandbox_id, status FROM containers').all() as Record<string, string>[]).map((r) => ({
      id: r.id!,
      name: r.name!,
      sandboxId: r.sandbox_id!,
      status: JSON.parse(r.status!) as ContainerRow['status'],
    }));
    const snapshots = db.prepare('SELECT key, id, kind FROM snapshots').all() as SnapshotRow[];
    return { sandboxes, containers, snapshots };
  });
}

/** Mount points at or under `dir` in this mount namespace (overlay rootfs, shm, nsfs). */
export function mountsUnder(dir: string): string[] {
  return readFileSync('/proc/self/mountinfo', 'utf8')
    .split('\n')
    .map((l) => l.split(' ')[4] ?? '')
    .filter((p) => p === dir || p.startsWith(`${dir}/`));
}

/** PIDs of containerd-shim-runc-v2 processes serving `socket`, with the task ID each was started for. */
export function shimsOf(socket: string): { pid: number; id: string }[] {
  const shims: { pid: number; id: string }[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const argv = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0');
      if (argv[0]?.includes('containerd-shim-runc-v2') && argv.includes(socket)) {
        shims.push({ pid: Number(name), id: argv[argv.indexOf('-id') + 1] ?? '' });
      }
    } catch {
      // exited meanwhile
    }
  }
  return shims;
}

function list(dir: string): string[] {
  return existsSync(dir) ? readdirSync(dir) : [];
}

export interface HostView {
  root: string;
  state: string;
  dir: string;
  socket: string;
  cgroupParent: string;
  /** host-local's allocations for the env's network. */
  allocatedIPs: () => string[];
}

/**
 * Everything on the host that no row owns, plus rows that are half-done. Empty when consistent.
 * Pods in state 'ready' own a netns, an IP, a shm mount, a rootfs mount and a shim; containers
 * own their dirs, snapshot, and (running) a task; nothing else may exist.
 */
export function leaks(h: HostView): string[] {
  const rows = dbRows(h.root);
  const found: string[] = [];
  const sandboxIds = new Set(rows.sandboxes.map((s) => s.id));
  const containerIds = new Set(rows.containers.map((c) => c.id));
  const owned = (id: string) => sandboxIds.has(id) || containerIds.has(id);

  for (const s of rows.sandboxes) if (s.state === 'unknown') found.push(`half sandbox row ${s.id}`);
  for (const c of rows.containers) if (!sandboxIds.has(c.sandboxId)) found.push(`container row ${c.id} of missing sandbox ${c.sandboxId}`);
  for (const c of rows.containers) {
    if (c.status.startedAt === '0' && c.status.finishedAt === '0' && c.status.pid !== 0) found.push(`created container ${c.id} with a pid`);
  }

  for (const snap of rows.snapshots) {
    if (snap.kind === 'active' && !owned(snap.key)) found.push(`active snapshot ${snap.key} without a record`);
  }
  const snapshotIds = new Set(rows.snapshots.map((s) => String(s.id)));
  for (const n of list(join(h.root, 'overlayfs', 'snapshots'))) if (!snapshotIds.has(n)) found.push(`snapshot dir ${n} without a row`);

  for (const [base, kind] of [[h.root, 'sandboxes'], [h.state, 'sandboxes'], [h.root, 'containers'], [h.state, 'containers']] as const) {
    const ids = kind === 'sandboxes' ? sandboxIds : containerIds;
    for (const n of list(join(base, kind))) if (!ids.has(n)) found.push(`${kind} dir ${join(base, kind, n)}`);
  }
  const taskDir = join(h.state, 'io.containerd.runtime.v2.task');
  for (const ns of list(taskDir)) for (const id of list(join(taskDir, ns))) if (!owned(id)) found.push(`task bundle ${ns}/${id}`);

  const liveNetns = new Set(rows.sandboxes.filter((s) => s.state === 'ready').map((s) => s.netnsPath));
  for (const n of list(join(h.state, 'netns'))) {
    if (!liveNetns.has(join(h.state, 'netns', n))) found.push(`netns file ${n} of no ready pod`);
  }

  const readyPods = rows.sandboxes.filter((s) => s.state === 'ready');
  const legit = new Set<string>();
  for (const s of readyPods) {
    legit.add(s.netnsPath);
    legit.add(join(h.state, 'sandboxes', s.id, 'shm'));
  }
  const liveTaskIds = new Set([...readyPods.map((s) => s.id), ...rows.containers.filter((c) => c.status.pid !== 0 && c.status.finishedAt === '0').map((c) => c.id)]);
  for (const m of mountsUnder(h.dir)) {
    const bundleOwner = m.startsWith(`${taskDir}/`) ? m.slice(taskDir.length + 1).split('/')[1] : undefined;
    if (legit.has(m) || (bundleOwner !== undefined && liveTaskIds.has(bundleOwner))) continue;
    found.push(`mount ${m}`);
  }

  for (const shim of shimsOf(h.socket)) if (!readyPods.some((s) => s.id === shim.id)) found.push(`shim ${shim.pid} for ${shim.id}`);
  for (const leaf of leafCgroups(h.cgroupParent)) {
    const id = leaf.split('/').pop()!;
    if (!liveTaskIds.has(id)) {
      const pids = cgroupPids(leaf);
      found.push(pids.length > 0 ? `processes ${pids.join(',')} in cgroup ${leaf}` : `cgroup ${leaf}`);
    }
  }
  const ipsExpected = rows.sandboxes.filter((s) => s.state === 'ready' && s.netnsPath !== '').length;
  const ips = h.allocatedIPs();
  if (ips.length > ipsExpected) found.push(`${ips.length} pod IPs allocated for ${ipsExpected} ready pods`);
  return found;
}

/**
 * Test teardown after a failure: SIGKILL the shims serving `socket` and every process in the env's
 * cgroups (all started on the test's behalf), then lazily unmount whatever is left under `dir`.
 */
export function scrubHost(h: Pick<HostView, 'dir' | 'socket' | 'cgroupParent'>): void {
  for (const shim of shimsOf(h.socket)) {
    try {
      process.kill(shim.pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
  for (const leaf of leafCgroups(h.cgroupParent)) {
    for (const pid of cgroupPids(leaf)) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone
      }
    }
  }
  for (const m of mountsUnder(h.dir).reverse()) {
    try {
      execFileSync('umount', ['-l', m], { stdio: 'ignore' });
    } catch {
      // already gone with its parent
    }
  }
}

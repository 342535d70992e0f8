// The host as each measurement finds it, made the same for both peers. What one peer's tear-down
// leaves the kernel doing lands on whoever is measured next, so the peer measured second paid for
// the first (2026-12-04, one 110-pod start per peer, each right after the other's tear-down:
// the second was 6-7 s slower in both orders):
//  - a removed memory cgroup stays "dying" until the pages charged to it are released: a minute or
//    two after 110 pods go, hundreds of them (/proc/cgroups); with that count back down before
//    each peer's start, the order no longer decided which peer was faster;
//  - ext4 without a journal does not reuse an inode freed in the last 60 s (360 s while its inode
//    table block is dirty), and scans past every such inode at each allocation (recently_deleted in
//    fs/ext4/ialloc.c): unpacking ~4,000 files right after another ~4,000 were deleted beside them
//    took 3-6 times as long (berth's snapshots now avoid that: the overlay snapshotter's
//    markTopDir; containerd's do not).
// So before a measurement: the deletions are awaited (used inodes back to the baseline), the dirty
// blocks written (sync), the dying memory cgroups awaited, and ext4's minute passed where the
// scenario can afford it. Each wait is bounded; what was not reached is logged, and the
// measurement goes on.
import { execFileSync } from 'node:child_process';
import { readFileSync, statfsSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { pollUntil } from './peers/ready';

/** ext4's recently_deleted window (RECENTCY_MIN) for an inode whose table block is clean, plus a margin. */
export const RECENTLY_DELETED_MS = 61_000;
const POLL_MS = 500;
/** Slack over the baseline: other processes create and remove a few of each meanwhile. */
const INODE_SLACK = 200;
const MEMCG_SLACK = 20;
/** Polls in a row without fewer inodes in use: the deletions are over. */
const STEADY_POLLS = 4;

/** What the settle reads of the host and does to it (a test gives its own). */
export interface HostProbe {
  usedInodes(path: string): number;
  memoryCgroups(): number | undefined;
  sync(): void;
}

export interface HostBaseline {
  /** The filesystem the peers' roots are on. */
  path: string;
  usedInodes: number;
  /** Memory cgroups the kernel counts, live and dying (undefined without a memory controller). */
  memoryCgroups: number | undefined;
}

function usedInodes(path: string): number {
  const st = statfsSync(path);
  return st.files - st.ffree;
}

/** The memory controller's cgroup count in /proc/cgroups (v1 and v2), dying ones included. */
function memoryCgroups(): number | undefined {
  const match = /^memory\s+\d+\s+(\d+)\s+1$/m.exec(readFileSync('/proc/cgroups', 'utf8'));
  return match ? Number(match[1]) : undefined;
}

const REAL_HOST: HostProbe = { usedInodes, memoryCgroups, sync: () => execFileSync('sync') };

export function hostBaseline(path: string, probe: HostProbe = REAL_HOST): HostBaseline {
  return { path, usedInodes: probe.usedInodes(path), memoryCgroups: probe.memoryCgroups() };
}

/**
 * Waits until the host is back where `baseline` found it (see the file comment): the deletions done
 * (used inodes back at the baseline or no longer falling; at most `timeoutMs`), written (sync), the
 * dying memory cgroups released (at most `timeoutMs`), and `quietMs` passed since the sync.
 * Resolves to the seconds it waited.
 */
export async function settleHost(
  baseline: HostBaseline,
  log: (line: string) => void,
  quietMs = RECENTLY_DELETED_MS,
  timeoutMs = 150_000,
  probe: HostProbe = REAL_HOST,
): Promise<number> {
  const start = Date.now();
  // Done when back at the baseline, or when the count stopped falling: what a scenario keeps on
  // purpose (the pods' log directories the bench made as the kubelet does) is not a deletion to await.
  let last = Number.POSITIVE_INFINITY;
  let steady = 0;
  const inodesBack = await pollUntil(async () => {
    const used = probe.usedInodes(baseline.path);
    steady = used < last ? 0 : steady + 1;
    last = used;
    return used <= baseline.usedInodes + INODE_SLACK || steady >= STEADY_POLLS;
  }, timeoutMs, POLL_MS);
  if (!inodesBack) log(`settle: ${probe.usedInodes(baseline.path) - baseline.usedInodes} inodes more in use than at the baseline, still falling after ${timeoutMs} ms`);
  probe.sync();
  const synced = Date.now();
  const { memoryCgroups: memcgs } = baseline;
  if (memcgs !== undefined) {
    const memcgsBack = await pollUntil(async () => (probe.memoryCgroups() ?? 0) <= memcgs + MEMCG_SLACK, timeoutMs, POLL_MS);
    if (!memcgsBack) log(`settle: ${probe.memoryCgroups()} memory cgroups (live and dying) against ${memcgs} at the baseline after ${timeoutMs} ms`);
  }
  await sleep(Math.max(0, synced + quietMs - Date.now()));
  return (Date.now() - start) / 1000;
}

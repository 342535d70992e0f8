// The end of recovery at start: whatever no record owns is removed (task bundles, pod networks,
// netns files, active snapshots, sandbox and container dirs). After a crash that is the debris of
// half-done work; after the database lost records it is pods that were running.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { isNotFound, messageOf } from '../../errdefs/errors';
import { sweepOrphanNetns } from '../../netns/netns';
import { isUnpackKey } from '../../rootfs';
import { resolveRuntimeHandler } from '../runtime_handler';
import { sandboxShmPath, unmountSandboxShm } from '../sandbox_files';
import { forEachBounded } from '../util/bounded';
import type { RecoveryReport } from './recover';
import { netnsDir, sandboxDirs } from './sandbox_run';
import type { CriService } from './service';

/** What the sweep removed, by kind: all of it belonged to a pod or container no record owns. */
export interface SweepCounts {
  tasks: number;
  podNetworks: number;
  netns: number;
  snapshots: number;
  dirs: number;
}

/**
 * Detaches, as StopPodSandbox would, each pod the CNI result cache still holds attachments of
 * but no sandbox record owns (e.g. the database lost the pod's commits): without the DEL its IPs
 * stay allocated in the IPAM plugin's store for good. Runs while the pod's netns is still there
 * (the plugins then also clean its side); a DEL that fails keeps its cache entry for the next start.
 */
async function detachOrphanPodNetworks(
  svc: CriService,
  sandboxIds: ReadonlySet<string>,
  liveNetns: ReadonlySet<string>,
  concurrency: number,
): Promise<{ detached: string[]; keptNetns: Set<string> }> {
  const detached: string[] = [];
  const keptNetns = new Set<string>();
  await forEachBounded(svc.rt.cni.cachedPodsExcept(sandboxIds), concurrency, async (req) => {
    // Never hand the plugins a netns a live pod owns: they would detach that pod instead.
    const netnsPath = liveNetns.has(req.netnsPath) ? '' : req.netnsPath;
    try {
      await svc.rt.cni.endLeftoverPlugins(req.id);
      await svc.rt.cni.teardownPodNetwork({ ...req, netnsPath });
      detached.push(req.id);
      svc.logger.info('detached orphan pod network', { podSandboxId: req.id, netnsPath });
    } catch (err) {
      // Its netns stays for the next start's DEL, so the plugins can still clean the pod's side
      // (the bridge plugin's masquerade rules, say), which a DEL without a netns skips.
      if (netnsPath !== '') keptNetns.add(netnsPath);
      svc.logger.warn('cannot detach orphan pod network', { podSandboxId: req.id, netnsPath, error: messageOf(err) });
    }
  });
  return { detached, keptNetns };
}

/** Removes what no record owns: task bundles, pod networks, netns files, active snapshots, sandbox/container dirs. */
export async function sweep(svc: CriService, report: RecoveryReport, concurrency: number): Promise<SweepCounts> {
  const rt = svc.rt;
  const sandboxIds = new Set(rt.sandboxes.list().map((s) => s.id));
  const containerIds = new Set(rt.containers.list().map((c) => c.id));
  const owned = (id: string) => sandboxIds.has(id) || containerIds.has(id);
  const counts: SweepCounts = { tasks: 0, podNetworks: 0, netns: 0, snapshots: 0, dirs: 0 };

  for (const id of rt.tasks.bundlesOnDisk()) {
    if (owned(id)) continue;
    await rt.tasks.cleanupDead(id, resolveRuntimeHandler(svc.config, ''));
    report.swept.push(`task ${id}`);
    counts.tasks++;
  }

  const liveNetns = new Set(rt.sandboxes.list().map((s) => s.metadata.netnsPath).filter((p) => p !== ''));
  const networks = await detachOrphanPodNetworks(svc, sandboxIds, liveNetns, concurrency);
  for (const id of networks.detached) {
    report.swept.push(`pod network ${id}`);
    counts.podNetworks++;
  }
  for (const p of sweepOrphanNetns(netnsDir(svc), new Set([...liveNetns, ...networks.keptNetns]), svc.logger)) {
    report.swept.push(`netns ${p}`);
    counts.netns++;
  }

  const orphanSnapshots: string[] = [];
  await rt.snapshotter.walk((info) => {
    if (info.kind === 'active' && !owned(info.name) && !isUnpackKey(info.name)) orphanSnapshots.push(info.name);
  });
  for (const key of orphanSnapshots) {
    await rt.snapshotter.remove(key).catch((err: unknown) => {
      if (!isNotFound(err)) throw err;
    });
    report.swept.push(`snapshot ${key}`);
    counts.snapshots++;
  }

  for (const kind of ['sandboxes', 'containers'] as const) {
    const ids = kind === 'sandboxes' ? sandboxIds : containerIds;
    for (const [base, trash] of [[svc.config.root, svc.rt.trash.root], [svc.config.state, svc.rt.trash.state]] as const) {
      const dir = join(base, kind);
      if (!existsSync(dir)) continue;
      for (const name of readdirSync(dir)) {
        if (ids.has(name)) continue;
        if (kind === 'sandboxes') unmountSandboxShm(sandboxShmPath(sandboxDirs(svc, name).stateDir));
        trash.discard(join(dir, name));
        report.swept.push(`${kind} dir ${join(dir, name)}`);
        counts.dirs++;
      }
    }
  }
  return counts;
}

/**
 * Says at warn level what the sweep took from pods and containers: after a crash that is debris,
 * but when the database lost records it is running pods killed, which an operator must notice.
 */
export function warnSwept(svc: CriService, c: SweepCounts): void {
  if (c.tasks + c.podNetworks + c.netns + c.snapshots + c.dirs === 0) return;
  svc.logger.warn(
    `recovery removed ${c.tasks} task(s), ${c.podNetworks} pod network(s), ${c.netns} network namespace(s), ` +
      `${c.snapshots} active snapshot(s) and ${c.dirs} sandbox/container dir(s) that no record owns`,
    { ...c },
  );
}

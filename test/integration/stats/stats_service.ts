// A CriService for the stats handlers with only what they read: real sandbox and container stores
// and a real overlay snapshotter over a metadata DB under `dir` (the caller's temp dir). No shim,
// no CNI: the tests place processes in cgroups themselves.
import { join } from 'node:path';
import { validateConfig } from '../../../internal/config/load';
import { CriService, type RuntimeDeps } from '../../../internal/cri/server/service';
import { ContainerStore, type ContainerMetadata } from '../../../internal/cri/store/container';
import { SandboxStore, type SandboxMetadata } from '../../../internal/cri/store/sandbox';
import { silentLogger } from '../../../internal/log/logger';
import { MetadataDB } from '../../../internal/metadata/db';
import { OverlaySnapshotter } from '../../../internal/snapshots/overlay/overlay';

export interface StatsService {
  /** Close it after the service is done. */
  db: MetadataDB;
  svc: CriService;
}

export function openStatsService(dir: string): StatsService {
  const db = MetadataDB.open(join(dir, 'meta.db'));
  const config = validateConfig({ root: join(dir, 'root'), state: join(dir, 'state') }, 'test');
  const runtime = {
    db,
    snapshotter: new OverlaySnapshotter({ root: join(config.root, 'overlayfs'), db }),
    sandboxes: new SandboxStore(db),
    containers: new ContainerStore(db),
  } as Partial<RuntimeDeps> as RuntimeDeps;
  return { db, svc: new CriService({ config, logger: silentLogger, runtime }) };
}

/** A 64-character ID: `kind` then `n` zero-padded. */
export const hexId = (kind: string, n: number): string => `${kind}${String(n).padStart(63, '0')}`;

/** Records a ready pod `pod<p>` (ID hexId('a', p)) whose cgroup parent is `cgroupParent`; returns its ID. */
export function addReadySandbox(svc: CriService, p: number, dir: string, cgroupParent: string): string {
  const id = hexId('a', p);
  const sandbox: SandboxMetadata = {
    id, name: `pod${p}`, runtimeHandler: 'runc', runtimeType: 'io.containerd.runc.v2', netnsPath: '', ip: '',
    additionalIps: [], image: 'pause', imageId: 'sha256:p', snapshotKey: id, rootDir: dir, stateDir: dir, cgroupParent,
    config: { metadata: { name: `pod${p}`, uid: `u${p}`, namespace: 'ns', attempt: 0 }, labels: {}, annotations: {} } as unknown as SandboxMetadata['config'],
  };
  svc.rt.sandboxes.add(sandbox, { state: 'ready', pid: 0, createdAt: '1', exitStatus: 0, exitedAt: '0' });
  return id;
}

/**
 * Records a running container `c<p>-<c>` (ID `id`, its own snapshot key) of pod `podId` whose spec
 * puts it in `cgroup`.
 */
export function addRunningContainer(svc: CriService, id: string, p: number, c: number, podId: string, dir: string, cgroup: string): void {
  const metadata: ContainerMetadata = {
    id, name: `c${p}-${c}`, sandboxId: podId, imageRef: 'busybox', imageId: 'sha256:b', logPath: '', snapshotKey: id,
    stateDir: dir, rootDir: dir, stopSignal: 'SIGTERM', runtimeHandler: 'runc', runtimeType: 'io.containerd.runc.v2',
    config: { metadata: { name: `c${c}`, attempt: 0 }, labels: {}, annotations: {} } as unknown as ContainerMetadata['config'],
  };
  svc.rt.containers.add(metadata, { ociVersion: '1.0.2', linux: { cgroupsPath: cgroup } }, {
    pid: 0, createdAt: '1', startedAt: '2', finishedAt: '0', exitCode: 0, reason: '', message: '', unknown: false,
  });
}

// CreateContainer, in containerd's order: sandbox lookup, ID and name reservation, the image
// resolved locally, the container's snapshot, its OCI spec, then the container record with its spec
// persisted in one transaction, CONTAINER_CREATED and the post-create hook. No process, no mount(2).
//
// Crash safety: the record is written last, as the commit point. Before it, the only things outside
// the process are the active snapshot (key = container ID, labelled io.berth/container=<id>) and the
// two container dirs (named by the ID); a kill in between leaves them without a row, which the start-up
// sweep recognises by label / directory name and removes. After it, the container is complete.
import { join } from 'node:path';
import type { ContainerConfig__Output } from '../../api/gen/runtime/v1/ContainerConfig';
import type { CreateContainerRequest__Output } from '../../api/gen/runtime/v1/CreateContainerRequest';
import type { CreateContainerResponse } from '../../api/gen/runtime/v1/CreateContainerResponse';
import type { PodSandboxConfig__Output } from '../../api/gen/runtime/v1/PodSandboxConfig';
import { failedPrecondition, invalidArgument, isNotFound, messageOf, notFound, wrap } from '../../errdefs/errors';
import { seedImageVolumes } from '../image_volumes';
import { buildContainerSpec } from '../opts/container_spec';
import { fromCriMount, imageVolumeMounts } from '../opts/mounts';
import { userLookupFromImage } from '../opts/user';
import { validateContainerConfig } from '../opts/validate';
import { specImageConfig } from '../image_config';
import { readRootfsFile } from '../rootfs_file';
import { resolveRuntimeHandler, specRuntimeOptions } from '../runtime_handler';
import { sandboxPaths } from '../sandbox_files';
import { imageNameOf, localImage } from '../sandbox_image';
import { snapshotGcGate } from '../snapshot_gc';
import { containerState, type Container } from '../store/container';
import type { Sandbox } from '../store/sandbox';
import { nowNanos } from '../store/time';
import { CleanupStack } from '../util/cleanup';
import { crashPoint } from '../util/crash_points';
import { retryWithBackoff } from '../util/retry';
import { generateId, makeContainerName } from '../util/ids';
import { hookContainer, hookSandbox } from './hook_views';
import type { CriService } from './service';
import { removeTree } from '../../fs/remove_tree';
import { makeDir } from '../../fs/make_dir';

/** Label on a container's active snapshot: names its owner so an orphan is recognisable. */
export const CONTAINER_SNAPSHOT_LABEL = 'io.berth/container';

export function containerDirs(svc: CriService, id: string): { rootDir: string; stateDir: string } {
  return { rootDir: join(svc.config.root, 'containers', id), stateDir: join(svc.config.state, 'containers', id) };
}

/**
 * Where the CRI log goes: <pod log_directory>/<container log_path>, as containerd joins them. ''
 * when the request names no log. A log_path escaping the pod's directory is refused.
 */
export function containerLogPath(logDirectory: string, logPath: string): string {
  if (logPath === '') return '';
  if (logPath.split('/').includes('..')) {
    throw invalidArgument(`container config log_path ${JSON.stringify(logPath)} must not contain ".."`);
  }
  // As containerd: without the pod's log directory the container has no log (an absolute log_path
  // alone would have berthd write wherever a request says).
  if (logDirectory === '') return '';
  return join(logDirectory, logPath);
}

/** The CRI stop_signal ("SIGNAL_SIGTERM"), else the image's StopSignal, else SIGTERM. */
export function containerStopSignal(config: ContainerConfig__Output, imageStopSignal: string | undefined): string {
  const requested = config.stop_signal;
  if (requested && requested !== 'SIGNAL_RUNTIME_DEFAULT') return requested.replace(/^SIGNAL_/, '');
  return imageStopSignal || 'SIGTERM';
}

/**
 * The container whose PID namespace a TARGET-mode container joins, as containerd's
 * validateTargetContainer: it must exist, belong to the same pod and be running. Checked at create
 * and again at start. Undefined when the pid mode is not TARGET.
 */
export function validateTargetContainer(svc: CriService, sandboxId: string, config: ContainerConfig__Output): Container | undefined {
  const ns = config.linux?.security_context?.namespace_options;
  if (ns?.pid !== 'TARGET') return undefined;
  const what = `invalid target container ${JSON.stringify(ns.target_id)}`;
  let target: Container;
  try {
    target = svc.rt.containers.get(ns.target_id);
  } catch (err) {
    throw wrap(err, what);
  }
  if (target.metadata.sandboxId !== sandboxId) {
    throw invalidArgument(`${what}: it belongs to sandbox ${target.metadata.sandboxId}, not to sandbox ${sandboxId}`);
  }
  const state = containerState(target.status);
  if (state !== 'CONTAINER_RUNNING' || target.status.pid === 0) throw failedPrecondition(`${what}: it is not running (${state})`);
  return target;
}

/**
 * A container joins its pod's namespaces through the pause process: none once the pod is NotReady
 * (stopped, or its pause exited). containerd fails the same way, finding no sandbox task.
 */
function assertSandboxRunning(sandbox: Sandbox): void {
  if (sandbox.status.state !== 'ready' || sandbox.status.pid === 0) {
    throw notFound(`failed to get sandbox container task: no running task found: task ${sandbox.id} not found`);
  }
}

export async function createContainer(svc: CriService, req: CreateContainerRequest__Output): Promise<CreateContainerResponse> {
  const rt = svc.rt;
  const sandbox = rt.sandboxes.get(req.pod_sandbox_id);
  // kubelet sends the pod config with every create, as containerd uses it; the stored one stands in.
  const sandboxConfig: PodSandboxConfig__Output = req.sandbox_config ?? sandbox.metadata.config;
  validateContainerConfig(req.config, sandboxConfig);
  const config = req.config!;
  assertSandboxRunning(sandbox);
  const sandboxPid = sandbox.status.pid;
  const id = generateId();
  const name = makeContainerName(config.metadata!, sandboxConfig.metadata ?? sandbox.metadata.config.metadata!);
  const log = svc.logger.with({ containerId: id, containerName: name, podSandboxId: sandbox.id });
  const cleanup = new CleanupStack(log);

  return rt.locks.run(id, () =>
    cleanup.run(async () => {
      try {
        rt.containerNames.reserve(name, id);
      } catch (err) {
        throw wrap(err, `create container in sandbox ${sandbox.id}: container name ${JSON.stringify(name)}`);
      }
      cleanup.push('release container name', () => rt.containerNames.releaseByKey(id));

      const runtime = resolveRuntimeHandler(svc.config, sandbox.metadata.runtimeHandler);
      const imageRef = config.image!.image;
      const logPath = containerLogPath(sandboxConfig.log_directory, config.log_path);
      const { rootDir, stateDir } = containerDirs(svc, id);

      // The GC gate (shared) keeps image snapshot GC from taking the chain between resolve and prepare.
      const releaseGate = await snapshotGcGate(rt.snapshotter).acquireShared();
      let rootfs;
      let image;
      try {
        image = await localImage(rt, imageRef).catch((err: unknown) => {
          throw wrap(err, `create container ${JSON.stringify(config.metadata!.name)}: image ${JSON.stringify(imageRef)}`);
        });
        rootfs = await rt.snapshotter.prepare(id, image.chainId, { labels: { [CONTAINER_SNAPSHOT_LABEL]: id } });
      } finally {
        releaseGate();
      }
      // A removal the database refuses (a full disk) is retried in the background: nothing else
      // would find this snapshot before a restart, and it pins the image's layers.
      cleanup.push('remove container snapshot', () =>
        rt.snapshotter.remove(id).catch((err: unknown) => {
          void retryWithBackoff(log.with({ snapshot: id }), 'removing the snapshot of a container not created', () =>
            rt.snapshotter.remove(id).catch((e: unknown) => {
              if (!isNotFound(e)) throw e;
            }),
          );
          throw err;
        }),
      );
      crashPoint('container_create:after_snapshot');

      cleanup.push('remove container dirs', () => Promise.all([removeTree(rootDir), removeTree(stateDir)]));
      // Undone above even when only one is made. On the thread pool: a mkdir can wait for the
      // disk's journal, and every other call with it (issue 16).
      await Promise.all([makeDir(rootDir, 0o700), makeDir(stateDir, 0o711)]);

      const imageConfig = specImageConfig(image.resolved.config);
      const volumesDir = svc.config.cri.ignore_image_defined_volumes ? undefined : join(rootDir, 'volumes');
      const features = await rt.features.of(runtime.config);
      const spec = buildContainerSpec({
        id,
        sandboxId: sandbox.id,
        containerConfig: config,
        sandboxConfig,
        imageConfig,
        imageName: config.image!.user_specified_image || (await imageNameOf(rt, image.id)),
        sandboxPid,
        targetPid: validateTargetContainer(svc, sandbox.id, config)?.status.pid,
        runtime: { ...specRuntimeOptions(svc.config, runtime), ...features },
        sandboxPaths: sandboxPaths(sandbox.metadata),
        userLookup: userLookupFromImage((p) => readRootfsFile(rootfs, p)),
        host: rt.host,
        volumesDir,
      });
      // The spec made each volume's directory (empty); the image's content there goes in now. A
      // failure leaves them to the container dirs' undo.
      await seedImageVolumes(rootfs, imageVolumeMounts(imageConfig, (config.mounts ?? []).map(fromCriMount), volumesDir));

      crashPoint('container_create:before_persist');
      // The commit point: metadata, spec and status in one transaction, under the pod's lock and with
      // the pod checked again. StopPodSandbox marks the pod NotReady under that lock, so once it has,
      // no container joins the pod, and RemovePodSandbox, which stops first, finds every container.
      const container = await rt.locks.run(sandbox.id, async () => {
        assertSandboxRunning(rt.sandboxes.get(sandbox.id));
        return rt.containers.add(
          {
            id,
            name,
            sandboxId: sandbox.id,
            config,
            imageRef,
            imageId: image.id,
            logPath,
            snapshotKey: id,
            stateDir,
            rootDir,
            stopSignal: containerStopSignal(config, imageConfig.StopSignal),
            runtimeHandler: runtime.handler,
            runtimeType: runtime.config.runtime_type,
          },
          spec,
          { pid: 0, createdAt: nowNanos(), startedAt: '0', finishedAt: '0', exitCode: 0, reason: '', message: '', unknown: false },
        );
      });
      cleanup.dismiss();
      log.info('container created', { image: imageRef, logPath });
      rt.events.publish({ containerId: id, sandboxId: sandbox.id, type: 'CONTAINER_CREATED_EVENT', createdAt: nowNanos() });
      // Like containerd's NRI post-create: the container exists; a hook failure is logged, not returned.
      await rt.hooks.postCreateContainer?.(hookSandbox(sandbox), hookContainer(container)).catch((err: unknown) => {
        log.warn('post-create hook failed', { error: messageOf(err) });
      });
      return { container_id: id };
    }),
  );
}

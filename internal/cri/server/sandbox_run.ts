// RunPodSandbox: ID and name reservation, the sandbox record persisted as intent (state unknown,
// hidden from lookups until the pod runs) before anything outside the process exists; then side by
// side the network namespace with CNI, and the pod files, /dev/shm, the pause container's snapshot,
// spec and shim; once both are done, the pause task (runc create, start), Ready and an exit
// monitor, as containerd orders them. Each step pushes its undo; any failure unwinds them all, and
// an undo that fails keeps the pod for a later removal.
import { join } from 'node:path';
import type { RunPodSandboxRequest__Output } from '../../api/gen/runtime/v1/RunPodSandboxRequest';
import type { RunPodSandboxResponse } from '../../api/gen/runtime/v1/RunPodSandboxResponse';
import { DEFAULT_IFNAME, type PodNetworkRequest, type PodNetworkSetup } from '../../cni/pod_network';
import { failedPrecondition, wrap } from '../../errdefs/errors';
import { NetNS, netnsPathFor } from '../../netns/netns';
import { podCniCapabilities } from '../opts/cni_capabilities';
import { buildSandboxSpec } from '../opts/sandbox_spec';
import { runningInUserNamespace } from '../opts/user_namespace';
import { userLookupFromImage } from '../opts/user';
import { validateSandboxConfig } from '../opts/validate';
import { specImageConfig } from '../image_config';
import { readRootfsFile } from '../rootfs_file';
import { resolveRuntimeHandler, specRuntimeOptions } from '../runtime_handler';
import { ensureImage } from '../sandbox_image';
import { mountSandboxShm, sandboxPaths, unmountSandboxShm, usesHostIpc, usesHostNetwork, writeSandboxFiles } from '../sandbox_files';
import type { PodSandboxConfig__Output } from '../../api/gen/runtime/v1/PodSandboxConfig';
import { callDeadlineMs, callSignal, type CallDeadline, type CallEnd } from '../util/call_signal';
import { CleanupStack } from '../util/cleanup';
import { crashPoint } from '../util/crash_points';
import { generateId, makeSandboxName } from '../util/ids';
import { nowNanos } from '../store/time';
import { hookSandbox } from './hook_views';
import type { CriService } from './service';
import { monitorSandboxExit } from './task_monitor';
import { removeTreeSync } from '../../fs/remove_tree';
import { makeDir } from '../../fs/make_dir';

export function sandboxDirs(svc: CriService, id: string): { rootDir: string; stateDir: string } {
  return { rootDir: join(svc.config.root, 'sandboxes', id), stateDir: join(svc.config.state, 'sandboxes', id) };
}

export function netnsDir(svc: CriService): string {
  return join(svc.config.state, 'netns');
}

/**
 * The CNI parameters of the pod. `strict` (RunPodSandbox) refuses invalid bandwidth annotations;
 * teardowns (stop, recovery) leave them out instead.
 */
export function podNetworkRequest(id: string, netnsPath: string, config: PodSandboxConfig__Output, opts = { strict: false }): PodNetworkRequest {
  const m = config.metadata!;
  return {
    id,
    netnsPath,
    podName: m.name,
    podNamespace: m.namespace,
    podUid: m.uid,
    ...podCniCapabilities(config, opts),
  };
}

export async function runPodSandbox(svc: CriService, req: RunPodSandboxRequest__Output, call: CallDeadline & CallEnd): Promise<RunPodSandboxResponse> {
  validateSandboxConfig(req.config);
  const config = req.config!;
  const rt = svc.rt;
  const id = generateId();
  const name = makeSandboxName(config.metadata!);
  const log = svc.logger.with({ podSandboxId: id, podName: name });
  const cleanup = new CleanupStack(log);

  // An undo that fails (a CNI DEL, the pause's delete) leaves the pod, as containerd keeps such a
  // sandbox as UNKNOWN: its record, name and netns stay, listed NOTREADY, for StopPodSandbox and
  // RemovePodSandbox (or a restart) to try again. Forgetting it would leak e.g. its IP and veth.
  const keptAfterFailedUndo = () => cleanup.failed;
  return rt.locks.run(id, () =>
    cleanup.run(async () => {
      rt.sandboxNames.reserve(name, id);
      cleanup.push('release sandbox name', () => keptAfterFailedUndo() || rt.sandboxNames.releaseByKey(id));
      crashPoint('sandbox_run:after_reserve');

      const hostNetwork = usesHostNetwork(config);
      const netnsPath = hostNetwork ? '' : netnsPathFor(netnsDir(svc));
      // Built (and its bandwidth annotations checked) before anything of the pod exists.
      // The plugins and the pause's Create are waited for no longer than the kubelet waits.
      const deadlineMs = callDeadlineMs(call);
      const request = hostNetwork ? undefined : { ...podNetworkRequest(id, netnsPath, config, { strict: true }), deadlineMs };
      const runtime = resolveRuntimeHandler(svc.config, req.runtime_handler);
      // A pull that drags on (a slow registry) ends with the caller, freeing the pod's name for its retry.
      const image = await ensureImage(rt, svc.config.cri.sandbox_image, callSignal(call)).catch((err: unknown) => {
        throw wrap(err, `sandbox image ${svc.config.cri.sandbox_image}`);
      });

      const { rootDir, stateDir } = sandboxDirs(svc, id);
      const paths = sandboxPaths({ rootDir, stateDir });

      // Intent first: a kill from here on leaves a row that recovery can finish undoing.
      rt.sandboxes.add(
        {
          id,
          name,
          config,
          runtimeHandler: runtime.handler,
          requestedRuntimeHandler: req.runtime_handler,
          runtimeType: runtime.config.runtime_type,
          netnsPath,
          ip: '',
          additionalIps: [],
          image: svc.config.cri.sandbox_image,
          imageId: image.id,
          snapshotKey: id,
          rootDir,
          stateDir,
          cgroupParent: config.linux?.cgroup_parent ?? '',
        },
        { state: 'unknown', pid: 0, createdAt: nowNanos(), exitStatus: 0, exitedAt: '0' },
        { creating: true },
      );
      cleanup.push('delete sandbox record', () => (keptAfterFailedUndo() ? rt.sandboxes.reveal(id) : rt.sandboxes.delete(id)));

      cleanup.push('remove sandbox dirs', () => {
        removeTreeSync(rootDir);
        removeTreeSync(stateDir);
      });
      // Undone above even when only one is made. On the thread pool: a mkdir can wait for the
      // disk's journal, and every other call with it (issue 16).
      await Promise.all([makeDir(rootDir, 0o700), makeDir(stateDir, 0o711)]);

      // The pod network (netns + CNI plugins) and the pause container's files, rootfs, spec and
      // shim do not depend on each other, so they are set up side by side. Only Create (runc
      // create, which joins the netns and applies net.* sysctls that may name CNI's interfaces)
      // waits for the network, keeping containerd's order for everything inside the pod.
      // Both push their undos; allSettled lets both finish (or fail) before anything is unwound,
      // so no step is left running behind the rollback.
      const network = async (): Promise<PodNetworkSetup | undefined> => {
        if (request === undefined) return undefined;
        const netns = await NetNS.createAt(netnsPath);
        // Only once the network is down: a kept pod's netns is what tells its stop to retry the DEL.
        cleanup.push('remove netns', () => keptAfterFailedUndo() || netns.remove());
        crashPoint('sandbox_run:after_netns');
        // Before the ADD, as containerd: a DEL also after an ADD that failed halfway.
        cleanup.push('teardown pod network', () => rt.cni.teardownPodNetwork(request));
        const setup = await rt.cni.setupPodNetwork(request);
        crashPoint('sandbox_run:after_cni');
        // As containerd: a pod with no address on its default interface is unreachable; it fails
        // instead of going Ready with an empty IP.
        if (setup.ips.length === 0) {
          throw failedPrecondition(`failed to find network info for sandbox ${id}: the CNI result has no IP on ${DEFAULT_IFNAME}`);
        }
        return setup;
      };
      const pauseTask = async (networkReady: Promise<unknown>) => {
        await writeSandboxFiles(config, paths);
        if (!usesHostIpc(config)) {
          mountSandboxShm(paths.shmPath);
          cleanup.push('unmount shm', () => unmountSandboxShm(paths.shmPath));
        }
        const rootfs = await rt.snapshotter.prepare(id, image.chainId, { labels: { 'io.berth/sandbox': id } });
        cleanup.push('remove sandbox snapshot', () => rt.snapshotter.remove(id));
        crashPoint('sandbox_run:after_snapshot');
        const spec = buildSandboxSpec({
          id,
          config,
          imageConfig: specImageConfig(image.resolved.config),
          imageName: svc.config.cri.sandbox_image,
          netnsPath: netnsPath || undefined,
          runtime: specRuntimeOptions(svc.config, runtime),
          sandboxPaths: paths,
          userLookup: userLookupFromImage((p) => readRootfsFile(rootfs, p)),
          host: rt.host,
          unprivileged: {
            unprivilegedPorts: svc.config.cri.enable_unprivileged_ports,
            // As containerd: a user namespace cannot map the whole gid range for ping_group_range.
            unprivilegedIcmp: svc.config.cri.enable_unprivileged_icmp && !runningInUserNamespace(),
          },
        });
        const created = await rt.tasks.create({
          id,
          sandboxId: id,
          spec,
          rootfs,
          stdio: { stdin: '', stdout: '', stderr: '', terminal: false },
          runtime,
          deadlineMs,
          beforeCreate: async () => {
            await networkReady;
            crashPoint('sandbox_run:before_task_create');
          },
        });
        cleanup.push('delete pause task', async () => {
          await created.kill(9, true).catch(() => undefined);
          await created.exited.catch(() => undefined);
          await created.delete();
        });
        crashPoint('sandbox_run:after_task_create');
        return { task: created, spec };
      };
      const networkReady = network();
      const [networkDone, taskDone] = await Promise.allSettled([networkReady, pauseTask(networkReady)]);
      if (networkDone.status === 'rejected') throw networkDone.reason;
      if (taskDone.status === 'rejected') throw taskDone.reason;
      const { task, spec } = taskDone.value;
      const setup = networkDone.value;
      // One write for what both sides learned: the pause spec and the pod's addresses (verbose status).
      rt.sandboxes.updateMetadata(id, (m) => ({
        ...m,
        runtimeSpec: spec,
        ...(setup === undefined
          ? {}
          : { ip: setup.ips[0]!, additionalIps: setup.ips.slice(1), cniResult: { interfaces: setup.result.interfaces, routes: setup.result.routes, dns: setup.result.dns } }),
      }));

      const pid = await task.start();
      rt.sandboxes.updateStatus(id, (s) => ({ ...s, state: 'ready', pid }));
      rt.sandboxes.reveal(id);
      void monitorSandboxExit(svc, id, task);
      log.info('pod sandbox running', { pid, ip: rt.sandboxes.get(id).metadata.ip });
      rt.events.publish({ containerId: id, sandboxId: id, type: 'CONTAINER_CREATED_EVENT', createdAt: nowNanos() });
      rt.events.publish({ containerId: id, sandboxId: id, type: 'CONTAINER_STARTED_EVENT', createdAt: nowNanos() });
      await rt.hooks.runPodSandbox?.(hookSandbox(rt.sandboxes.get(id)));
      return { pod_sandbox_id: id };
    }),
  );
}

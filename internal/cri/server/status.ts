// Status: the RuntimeReady and NetworkReady conditions kubelet waits for before scheduling pods,
// the runtime handlers berth offers and what each can do, and with `verbose` the configuration it
// runs with, the CNI configuration pods get and why it does not load.
import { readdir } from 'node:fs/promises';
import type { RuntimeCondition } from '../../api/gen/runtime/v1/RuntimeCondition';
import type { RuntimeHandler } from '../../api/gen/runtime/v1/RuntimeHandler';
import type { StatusRequest__Output } from '../../api/gen/runtime/v1/StatusRequest';
import type { StatusResponse } from '../../api/gen/runtime/v1/StatusResponse';
import { failedPrecondition, messageOf } from '../../errdefs/errors';
import type { CriService } from './service';

export const RUNTIME_READY = 'RuntimeReady';
export const NETWORK_READY = 'NetworkReady';
// Reason kubelet shows for a node whose network is not ready, as containerd words it.
export const NETWORK_NOT_READY_REASON = 'NetworkPluginNotReady';

const CNI_CONFIG_EXTENSIONS = ['.conf', '.conflist', '.json'];

/** The default readiness check: a network config exists in [cni] conf_dir. */
export async function cniConfigPresent(confDir: string): Promise<void> {
  let names: string[];
  try {
    names = await readdir(confDir);
  } catch {
    names = [];
  }
  if (!names.some((n) => CNI_CONFIG_EXTENSIONS.some((ext) => n.endsWith(ext)))) {
    throw failedPrecondition('cni plugin not initialized');
  }
}

/** NetworkReady, and why not ("OK" when ready: the verbose info's lastCNILoadStatus, as containerd's). */
async function networkCondition(svc: CriService): Promise<{ condition: RuntimeCondition; loadStatus: string }> {
  const check = svc.deps.networkStatus ?? (() => cniConfigPresent(svc.config.cni.conf_dir));
  try {
    await check();
    return { condition: { type: NETWORK_READY, status: true, reason: '', message: '' }, loadStatus: 'OK' };
  } catch (err) {
    return {
      condition: { type: NETWORK_READY, status: false, reason: NETWORK_NOT_READY_REASON, message: `Network plugin returns error: ${messageOf(err)}` },
      loadStatus: messageOf(err),
    };
  }
}

async function runtimeHandler(svc: CriService, name: string, handler: string): Promise<RuntimeHandler> {
  const runtime = svc.config.cri.runtimes[handler]!;
  const { recursiveReadOnlyMounts } = await svc.rt.features.of(runtime);
  // runc 1.1 has no idmapped mounts, which CRI user namespaces need.
  return { name, features: { recursive_read_only_mounts: recursiveReadOnlyMounts, user_namespaces: false } };
}

function runtimeHandlers(svc: CriService): Promise<RuntimeHandler[]> {
  const names = Object.keys(svc.config.cri.runtimes).sort();
  // "" is the handler of pods that name none: the default runtime, with its features.
  return Promise.all([runtimeHandler(svc, '', svc.config.cri.default_runtime), ...names.map((n) => runtimeHandler(svc, n, n))]);
}

export async function status(svc: CriService, req: StatusRequest__Output): Promise<StatusResponse> {
  const network = await networkCondition(svc);
  const conditions: RuntimeCondition[] = [{ type: RUNTIME_READY, status: true, reason: '', message: '' }, network.condition];
  const info: Record<string, string> = {};
  if (req.verbose) {
    // The keys of containerd's answer that `crictl info` users read, berth's runtime aside ("golang").
    info.config = JSON.stringify(svc.config);
    if (svc.deps.networkConfig) info.cniconfig = JSON.stringify(svc.deps.networkConfig());
    info.lastCNILoadStatus = network.loadStatus;
    info['lastCNILoadStatus.default'] = network.loadStatus;
  }
  return {
    status: { conditions },
    info,
    runtime_handlers: await runtimeHandlers(svc),
    // CreateContainer honours supplemental_groups_policy Strict (kubelet refuses Strict pods otherwise).
    features: { supplemental_groups_policy: true, user_namespaces_host_network: false, mount_options: false },
  };
}

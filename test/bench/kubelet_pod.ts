// A pod as the kubelet makes it: the kubelet's labels and annotations on the sandbox and on each
// container (so list filters and responses carry what they carry on a node), brought up in the
// kubelet's order (RunPodSandbox, PodSandboxStatus for the IP, then per container ImageStatus,
// CreateContainer, StartContainer) and taken down as a pod deletion ends (StopPodSandbox,
// RemovePodSandbox; both runtimes stop and remove the pod's containers with it).
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { ContainerConfig } from '../../internal/api/gen/runtime/v1/ContainerConfig';
import type { PodSandboxConfig } from '../../internal/api/gen/runtime/v1/PodSandboxConfig';
import { BUSYBOX_IMAGE } from '../harness/images';
import { Aborted, RpcFailed } from './errors';
import type { BenchContext } from './pods';
import { podConfig, SLEEPER_COMMAND } from './pods';
import type { Peer } from './peers/peer';

export const POD_UID_LABEL = 'io.kubernetes.pod.uid';
export const CONTAINER_NAMES = ['app-a', 'app-b'] as const;

const RPC_DEADLINE_MS = 120_000;
const opts = () => ({ deadline: Date.now() + RPC_DEADLINE_MS });

export interface KubeletPod {
  podId: string;
  uid: string;
  config: PodSandboxConfig;
  containerIds: string[];
}

async function rpc<T>(name: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    throw new RpcFailed(name, err);
  }
}

function kubeletPodConfig(peer: Peer, name: string): PodSandboxConfig {
  const base = podConfig(peer, name);
  const uid = randomUUID();
  return {
    ...base,
    metadata: { ...base.metadata!, uid },
    labels: {
      app: 'berth-bench-scale',
      'io.kubernetes.pod.name': name,
      'io.kubernetes.pod.namespace': 'berth-bench',
      [POD_UID_LABEL]: uid,
    },
    annotations: { 'kubernetes.io/config.seen': new Date().toISOString(), 'kubernetes.io/config.source': 'file' },
  };
}

function kubeletContainerConfig(pod: PodSandboxConfig, name: string): ContainerConfig {
  const meta = pod.metadata!;
  return {
    metadata: { name, attempt: 0 },
    image: { image: BUSYBOX_IMAGE },
    command: SLEEPER_COMMAND,
    log_path: `${name}/0.log`,
    labels: {
      'io.kubernetes.container.name': name,
      'io.kubernetes.pod.name': meta.name!,
      'io.kubernetes.pod.namespace': meta.namespace!,
      [POD_UID_LABEL]: meta.uid!,
    },
    annotations: {
      'io.kubernetes.container.hash': '5d1f3c2a',
      'io.kubernetes.container.restartCount': '0',
      'io.kubernetes.container.terminationMessagePath': '/dev/termination-log',
      'io.kubernetes.container.terminationMessagePolicy': 'File',
      'io.kubernetes.pod.terminationGracePeriod': '30',
    },
    linux: {},
  };
}

/**
 * Brings one pod up. `track` receives the pod as soon as its sandbox exists (before its
 * containers), so whoever removes pods later knows it even when this call fails half-way.
 */
export async function startKubeletPod(peer: Peer, name: string, ctx: BenchContext, track: (pod: KubeletPod) => void): Promise<KubeletPod> {
  if (ctx.aborted()) throw new Aborted();
  const config = kubeletPodConfig(peer, name);
  // The kubelet makes the pod's log directory before RunPodSandbox and each container's before
  // CreateContainer (kuberuntime: MkdirAll), so a runtime finds them there.
  mkdirSync(config.log_directory!, { recursive: true, mode: 0o755 });
  const { pod_sandbox_id: podId } = await rpc('RunPodSandbox', () => peer.cri.runtime.RunPodSandbox({ config }, opts()));
  const pod: KubeletPod = { podId, uid: config.metadata!.uid!, config, containerIds: [] };
  track(pod);
  await rpc('PodSandboxStatus', () => peer.cri.runtime.PodSandboxStatus({ pod_sandbox_id: podId }, opts()));
  for (const containerName of CONTAINER_NAMES) {
    if (ctx.aborted()) throw new Aborted();
    await rpc('ImageStatus', () => peer.cri.image.ImageStatus({ image: { image: BUSYBOX_IMAGE } }, opts()));
    mkdirSync(join(config.log_directory!, containerName), { recursive: true, mode: 0o755 });
    const { container_id } = await rpc('CreateContainer', () =>
      peer.cri.runtime.CreateContainer(
        { pod_sandbox_id: podId, config: kubeletContainerConfig(config, containerName), sandbox_config: config },
        opts(),
      ),
    );
    pod.containerIds.push(container_id);
    await rpc('StartContainer', () => peer.cri.runtime.StartContainer({ container_id }, opts()));
  }
  return pod;
}

/** StopPodSandbox + RemovePodSandbox (the pod's containers go with it on both runtimes). */
export async function removeKubeletPod(peer: Peer, podId: string): Promise<void> {
  await rpc('StopPodSandbox', () => peer.cri.runtime.StopPodSandbox({ pod_sandbox_id: podId }, opts()));
  await rpc('RemovePodSandbox', () => peer.cri.runtime.RemovePodSandbox({ pod_sandbox_id: podId }, opts()));
}

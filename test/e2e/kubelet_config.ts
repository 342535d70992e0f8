// What make e2e's standalone kubelet (kubelet.ts) and make e2e-cluster's node kubelet
// (cluster/node_kubelet.ts) share: a KubeletConfiguration with every port on 127.0.0.1, anonymous
// access to its API, cgroupfs under the run's cgroup root, nothing host-wide written, and no
// eviction for the machine's own use; and the flags of a remote CRI runtime whose files all live
// under the kubelet's own dir.
import { join } from 'node:path';

export interface LoopbackKubelet {
  /** The kubelet's own dir: root dir, cert dir, seccomp root, volume plugins. */
  dir: string;
  port: number;
  cgroupRoot: string;
  /** The runtime's CRI socket (runtime and image service). */
  runtimeSocket: string;
  /** Where cadvisor looks for a containerd (it only reads); a path nobody serves for berth. */
  cadvisorContainerdSocket: string;
  podInfraImage: string;
  nodeName: string;
}

export function loopbackKubeletConfig(k: Pick<LoopbackKubelet, 'dir' | 'port' | 'cgroupRoot'>): Record<string, unknown> {
  return {
    kind: 'KubeletConfiguration',
    apiVersion: 'kubelet.config.k8s.io/v1beta1',
    address: '127.0.0.1',
    port: k.port,
    readOnlyPort: 0,
    healthzPort: 0,
    // Nothing but loopback reaches this API; the apiserver (make e2e-cluster) calls it without a client certificate.
    authentication: { anonymous: { enabled: true }, webhook: { enabled: false }, x509: {} },
    authorization: { mode: 'AlwaysAllow' },
    syncFrequency: '10s',
    cgroupDriver: 'cgroupfs',
    cgroupsPerQOS: false,
    enforceNodeAllocatable: [],
    cgroupRoot: k.cgroupRoot,
    failSwapOn: false,
    // Refuse to start rather than write host-wide sysctls (private_mounts.ts binds its values).
    protectKernelDefaults: true,
    // No iptables chains in the host's tables (they are dockershim's business anyway).
    makeIPTablesUtilChains: false,
    oomScoreAdj: 0,
    volumePluginDir: join(k.dir, 'volume-plugins'),
    // Nothing of the machine's own disk or memory use may evict the checks' pods.
    evictionHard: { 'memory.available': '1Mi', 'nodefs.available': '1%', 'imagefs.available': '1%', 'nodefs.inodesFree': '1%' },
    featureGates: { DevicePlugins: false },
    serializeImagePulls: false,
  };
}

/** `--config` and the remote-runtime flags; the caller adds its own after them. */
export function remoteRuntimeFlags(k: LoopbackKubelet, configPath: string): string[] {
  const endpoint = `unix://${k.runtimeSocket}`;
  return [
    `--config=${configPath}`,
    `--root-dir=${join(k.dir, 'root')}`,
    `--cert-dir=${join(k.dir, 'pki')}`,
    `--seccomp-profile-root=${join(k.dir, 'seccomp')}`,
    '--container-runtime=remote',
    `--container-runtime-endpoint=${endpoint}`,
    `--image-service-endpoint=${endpoint}`,
    `--containerd=${k.cadvisorContainerdSocket}`,
    `--pod-infra-container-image=${k.podInfraImage}`,
    `--hostname-override=${k.nodeName}`,
  ];
}

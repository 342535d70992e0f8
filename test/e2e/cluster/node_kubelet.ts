// The one node: a kubelet joined to the control plane through its kubeconfig, registering as
// "localhost", so the apiserver (--kubelet-preferred-address-types=Hostname) reaches its API, bound
// to 127.0.0.1, on loopback for exec, attach, logs and port-forward. No --node-ip: kubelet 1.20
// refuses a loopback one and then publishes no address at all; left alone it records the host's
// own address as InternalIP, which nothing here dials. Otherwise configured as
// make e2e's standalone kubelet (test/e2e/kubelet.ts): remote CRI, cgroupfs under the run's cgroup
// root, every port on 127.0.0.1, all its files under its own temp dir.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from '../../harness/registry';
import type { E2eRuntime } from '../runtimes';
import { startProcess, waitHealthy, type ClusterProcess } from './processes';

export const NODE_NAME = 'localhost';

export interface NodeKubeletOptions {
  binary: string;
  dir: string;
  kubeconfig: string;
  runtime: E2eRuntime;
  podInfraImage: string;
}

export async function startNodeKubelet(opts: NodeKubeletOptions): Promise<ClusterProcess> {
  mkdirSync(opts.dir, { recursive: true });
  const port = await freePort();
  const config = {
    kind: 'KubeletConfiguration',
    apiVersion: 'kubelet.config.k8s.io/v1beta1',
    address: '127.0.0.1',
    port,
    readOnlyPort: 0,
    healthzBindAddress: '127.0.0.1',
    healthzPort: 0,
    // The apiserver calls this API without a client certificate; nothing but loopback reaches it.
    authentication: { anonymous: { enabled: true }, webhook: { enabled: false }, x509: {} },
    authorization: { mode: 'AlwaysAllow' },
    syncFrequency: '10s',
    nodeStatusUpdateFrequency: '5s',
    cgroupDriver: 'cgroupfs',
    cgroupsPerQOS: false,
    enforceNodeAllocatable: [],
    cgroupRoot: opts.runtime.cgroupRoot,
    failSwapOn: false,
    // Refuse to start rather than write host-wide sysctls (private_mounts.ts binds its values).
    protectKernelDefaults: true,
    makeIPTablesUtilChains: false,
    oomScoreAdj: 0,
    volumePluginDir: join(opts.dir, 'volume-plugins'),
    // Nothing of the machine's own disk or memory use may evict the checks' pods.
    evictionHard: { 'memory.available': '1Mi', 'nodefs.available': '1%', 'imagefs.available': '1%', 'nodefs.inodesFree': '1%' },
    featureGates: { DevicePlugins: false },
    serializeImagePulls: false,
  };
  const configPath = join(opts.dir, 'kubelet-config.json');
  writeFileSync(configPath, JSON.stringify(config, null, 2));
  const endpoint = `unix://${opts.runtime.peer.socket}`;
  const kubelet = startProcess('kubelet', opts.binary, [
    `--config=${configPath}`,
    `--kubeconfig=${opts.kubeconfig}`,
    `--root-dir=${join(opts.dir, 'root')}`,
    `--cert-dir=${join(opts.dir, 'pki')}`,
    `--seccomp-profile-root=${join(opts.dir, 'seccomp')}`,
    '--container-runtime=remote',
    `--container-runtime-endpoint=${endpoint}`,
    `--image-service-endpoint=${endpoint}`,
    `--containerd=${opts.runtime.cadvisorContainerdSocket}`,
    `--pod-infra-container-image=${opts.podInfraImage}`,
    `--hostname-override=${NODE_NAME}`,
    '--v=2',
  ], join(opts.dir, 'kubelet.log'));
  try {
    await waitHealthy(kubelet, `https://127.0.0.1:${port}/healthz`, 'ok');
  } catch (err) {
    await kubelet.stop();
    throw err;
  }
  return kubelet;
}

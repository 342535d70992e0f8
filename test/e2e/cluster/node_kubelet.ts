// The one node: a kubelet joined to the control plane through its kubeconfig, registering as
// "localhost", so the apiserver (--kubelet-preferred-address-types=Hostname) reaches its API, bound
// to 127.0.0.1, on loopback for exec, attach, logs and port-forward. No --node-ip: kubelet 1.20
// refuses a loopback one and then publishes no address at all; left alone it records the host's
// own address as InternalIP, which nothing here dials. Otherwise configured as
// make e2e's standalone kubelet (both from ../kubelet_config.ts): remote CRI, cgroupfs under the run's cgroup
// root, every port on 127.0.0.1, all its files under its own temp dir.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from '../../harness/registry';
import { loopbackKubeletConfig, remoteRuntimeFlags } from '../kubelet_config';
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
    ...loopbackKubeletConfig({ dir: opts.dir, port, cgroupRoot: opts.runtime.cgroupRoot }),
    healthzBindAddress: '127.0.0.1',
    nodeStatusUpdateFrequency: '5s',
  };
  const configPath = join(opts.dir, 'kubelet-config.json');
  writeFileSync(configPath, JSON.stringify(config, null, 2));
  const kubelet = startProcess('kubelet', opts.binary, [
    ...remoteRuntimeFlags(
      {
        dir: opts.dir,
        port,
        cgroupRoot: opts.runtime.cgroupRoot,
        runtimeSocket: opts.runtime.peer.socket,
        cadvisorContainerdSocket: opts.runtime.cadvisorContainerdSocket,
        podInfraImage: opts.podInfraImage,
        nodeName: NODE_NAME,
      },
      configPath,
    ),
    `--kubeconfig=${opts.kubeconfig}`,
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

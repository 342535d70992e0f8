// What the suites that drive a real berthd through the CRI share: its config for a test CNI
// network, the test images imported through Admin/ImportImage, and a pod driver that builds the
// pod and busybox container configs kubelet would send and runs them (RunPodSandbox,
// CreateContainer, ContainerStatus polling).
import { randomUUID } from 'node:crypto';
import type { ContainerConfig } from '../../internal/api/gen/runtime/v1/ContainerConfig';
import type { ContainerStatus__Output } from '../../internal/api/gen/runtime/v1/ContainerStatus';
import type { PodSandboxConfig } from '../../internal/api/gen/runtime/v1/PodSandboxConfig';
import type { CniTestEnv } from './cni';
import type { CriClient } from './cri_client';
import { BUSYBOX_IMAGE, testImages } from './images';

/** Call options giving an RPC `ms` to answer. */
export const deadline = (ms = 120_000) => ({ deadline: Date.now() + ms });

export interface TestTomlOptions {
  /** Extra [cri] keys (TOML lines). */
  criToml?: string;
  /** Text appended after the [cni] table. */
  extraToml?: string;
}

/**
 * berth.toml for tests: no negative oom_score_adj (root here lacks CAP_SYS_RESOURCE), the test CNI
 * network, and the test's own plugin dir (empty unless it writes one) before the system's.
 */
export function testBerthToml(cni: CniTestEnv, opts: TestTomlOptions = {}): string {
  return `[cri]
restrict_oom_score_adj = true
${opts.criToml ?? ''}

[cni]
bin_dirs = ${JSON.stringify(cni.binDirs)}
conf_dir = ${JSON.stringify(cni.confDir)}

${opts.extraToml ?? ''}
`;
}

/** Imports the busybox and pause test images (built when missing) into the daemon behind `client`. */
export async function importTestImages(client: CriClient): Promise<void> {
  const paths = await testImages();
  await client.admin.ImportImage({ path: paths.busyboxOci, name: '' });
  await client.admin.ImportImage({ path: paths.pauseOci, name: '' });
}

export interface PodDriver {
  podConfig(name: string, extra?: Partial<PodSandboxConfig>): PodSandboxConfig;
  /** A busybox container running `command`, with the pod's namespace modes as kubelet copies them. */
  containerConfig(pod: PodSandboxConfig, name: string, command: string[], extra?: Partial<ContainerConfig>): ContainerConfig;
  runPod(name: string, extra?: Partial<PodSandboxConfig>): Promise<{ podId: string; config: PodSandboxConfig }>;
  /** CreateContainer of containerConfig(...). */
  create(podId: string, pod: PodSandboxConfig, name: string, command: string[], extra?: Partial<ContainerConfig>): Promise<string>;
  status(id: string): Promise<ContainerStatus__Output>;
  /** Polls ContainerStatus until `state` (a guard against hanging, not a timing assertion). */
  waitState(id: string, state: string): Promise<ContainerStatus__Output>;
}

export interface PodDriverOptions {
  /** The client to call now (a daemon restart replaces it). */
  client: () => CriClient;
  /** Every pod runs under this cgroup parent. */
  cgroupParent: string;
  /** A pod's log_directory, by pod name. */
  logDirectory: (podName: string) => string;
}

export function podDriver(opts: PodDriverOptions): PodDriver {
  const driver: PodDriver = {
    podConfig: (name, extra = {}) => ({
      metadata: { name, uid: randomUUID(), namespace: 'berth-test', attempt: 0 },
      hostname: name,
      log_directory: opts.logDirectory(name),
      linux: {
        cgroup_parent: opts.cgroupParent,
        security_context: { namespace_options: { network: 'POD', pid: 'CONTAINER', ipc: 'POD' } },
      },
      ...extra,
    }),
    containerConfig(pod, name, command, extra = {}) {
      // kubelet copies the pod's namespace modes into each container's security context.
      const linux = extra.linux ?? {};
      const securityContext = linux.security_context ?? {};
      return {
        metadata: { name, attempt: 0 },
        image: { image: BUSYBOX_IMAGE },
        command,
        log_path: `${name}/0.log`,
        ...extra,
        linux: {
          ...linux,
          security_context: {
            ...securityContext,
            namespace_options: securityContext.namespace_options ?? pod.linux?.security_context?.namespace_options,
          },
        },
      };
    },
    async runPod(name, extra) {
      const config = driver.podConfig(name, extra);
      const { pod_sandbox_id } = await opts.client().runtime.RunPodSandbox({ config }, deadline());
      return { podId: pod_sandbox_id, config };
    },
    async create(podId, pod, name, command, extra) {
      const config = driver.containerConfig(pod, name, command, extra);
      const { container_id } = await opts.client().runtime.CreateContainer({ pod_sandbox_id: podId, config, sandbox_config: pod }, deadline());
      return container_id;
    },
    async status(id) {
      return (await opts.client().runtime.ContainerStatus({ container_id: id })).status!;
    },
    async waitState(id, state) {
      const giveUp = Date.now() + 60_000;
      for (;;) {
        const s = await driver.status(id);
        if (s.state === state) return s;
        if (Date.now() > giveUp) throw new Error(`container ${id} stayed ${s.state}, never ${state}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
  };
  return driver;
}

/** A test's own runtime handler: a shim (runtime_type, default runc v2) and/or a runc binary. */
export interface TestHandler {
  runtimeType?: string;
  binaryName?: string;
}

/**
 * [cri.runtimes] tables for `handlers`, with runc listed again (naming any table replaces the
 * default set).
 */
export function runtimeHandlersToml(handlers: Record<string, TestHandler>): string {
  const tables = Object.entries({ runc: {}, ...handlers }).map(([name, h]: [string, TestHandler]) => {
    const lines = [`[cri.runtimes.${name}]`, `runtime_type = ${JSON.stringify(h.runtimeType ?? 'io.containerd.runc.v2')}`];
    if (h.binaryName !== undefined) lines.push(`[cri.runtimes.${name}.options]`, `BinaryName = ${JSON.stringify(h.binaryName)}`);
    return lines.join('\n');
  });
  return `${tables.join('\n')}\n`;
}

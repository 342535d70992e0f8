// A real berthd whose root, state and socket outlive the process: the recovery, hostile-input and
// concurrency suites start it, crash it (BERTH_CRASH_AT) or stop it, and start it again on the same
// directories. Each env has its own CNI bridge and subnet, cgroup parent and pod log dirs; the
// busybox and pause images are imported once through Admin/ImportImage and stay in the root.
// close() removes what is left through the CRI, stops berthd and removes everything it made.
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, rmdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ContainerConfig } from '../../../internal/api/gen/runtime/v1/ContainerConfig';
import type { ContainerStatus__Output } from '../../../internal/api/gen/runtime/v1/ContainerStatus';
import type { PodSandboxConfig } from '../../../internal/api/gen/runtime/v1/PodSandboxConfig';
import { createCniTestEnv, SYSTEM_CNI_BIN_DIR, type CniTestEnv } from '../../harness/cni';
import { criClient, type CriClient } from '../../harness/cri_client';
import { startBerthd, type ExitStatus, type RunningBerthd } from '../../harness/daemon';
import { BUSYBOX_IMAGE, testImages } from '../../harness/images';
import { cgroupDirs, cgroupPids, leafCgroups, scrubHost } from './host_state';

export const SLEEPER = ['sh', '-c', 'trap "exit 0" TERM; sleep 3600 & wait'];
/** Writes "tick <n>" every 100 ms: a log that must keep flowing across restarts. */
export const TICKER = ['sh', '-c', 'i=0; while true; do i=$((i+1)); echo tick $i; sleep 0.1; done'];

export interface EnvOptions {
  /** Extra berth.toml text appended to the env's own ([cri] and [cni] are taken), given the env's dir. */
  extraToml?: (dir: string) => string;
  /** Extra [cri] keys (TOML lines). */
  criToml?: string;
}

export interface BerthEnv {
  readonly dir: string;
  readonly cni: CniTestEnv;
  /** Pod log directories live under it. */
  readonly scratch: string;
  /** "/berth-rec-<hex>": every pod runs under it. */
  readonly cgroupParent: string;
  /** The running daemon (after start); replaced by each start. */
  daemon: RunningBerthd;
  client: CriClient;
  /** Starts berthd on the env's directories (with BERTH_CRASH_AT when crashAt is given). */
  start(crashAt?: string): Promise<void>;
  /** SIGTERM the daemon (containers keep running) and wait for it. */
  stop(): Promise<ExitStatus>;
  /** Waits until a crash point killed the daemon; throws when it exited otherwise. */
  crashed(point: string): Promise<void>;
  podConfig(name: string, extra?: Partial<PodSandboxConfig>): PodSandboxConfig;
  containerConfig(pod: PodSandboxConfig, name: string, command: string[], extra?: Partial<ContainerConfig>): ContainerConfig;
  runPod(name: string, extra?: Partial<PodSandboxConfig>): Promise<{ podId: string; config: PodSandboxConfig }>;
  create(podId: string, pod: PodSandboxConfig, name: string, command: string[], extra?: Partial<ContainerConfig>): Promise<string>;
  status(id: string): Promise<ContainerStatus__Output>;
  waitState(id: string, state: string): Promise<ContainerStatus__Output>;
  /** Removes every pod through the CRI (what kubelet does when it gives up on a node). */
  removeAll(): Promise<void>;
  close(): Promise<void>;
}

export const deadline = (ms = 120_000) => ({ deadline: Date.now() + ms });

function removeCgroupParent(parent: string): void {
  if (!/^\/berth-rec-[0-9a-f]+$/.test(parent)) throw new Error(`refusing to remove cgroup ${parent}`);
  const removeTree = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) if (e.isDirectory()) removeTree(join(dir, e.name));
    rmdirSync(dir);
  };
  for (const dir of cgroupDirs(parent)) removeTree(dir);
}

export async function createBerthEnv(opts: EnvOptions = {}): Promise<BerthEnv> {
  const paths = await testImages();
  const cni = createCniTestEnv();
  const dir = mkdtempSync(join(tmpdir(), 'berth-rec-'));
  const scratch = join(dir, 'logs');
  const cgroupParent = `/berth-rec-${randomBytes(4).toString('hex')}`;
  const configToml = `[cri]
restrict_oom_score_adj = true
${opts.criToml ?? ''}

[cni]
bin_dirs = [${JSON.stringify(SYSTEM_CNI_BIN_DIR)}]
conf_dir = ${JSON.stringify(cni.confDir)}

${opts.extraToml?.(dir) ?? ''}
`;
  let imported = false;

  const env: BerthEnv = {
    dir,
    cni,
    scratch,
    cgroupParent,
    daemon: undefined as unknown as RunningBerthd,
    client: undefined as unknown as CriClient,
    async start(crashAt) {
      env.daemon = await startBerthd({ dir, configToml, env: crashAt ? { BERTH_CRASH_AT: crashAt } : { BERTH_CRASH_AT: '' } });
      env.client = criClient(env.daemon.socket);
      if (!imported) {
        await env.client.admin.ImportImage({ path: paths.busyboxOci, name: '' });
        await env.client.admin.ImportImage({ path: paths.pauseOci, name: '' });
        imported = true;
      }
    },
    async stop() {
      env.client.close();
      return env.daemon.stop();
    },
    async crashed(point) {
      const status = await env.daemon.exited;
      env.client.close();
      if (status.signal !== 'SIGKILL' || !env.daemon.stderr().includes(`crash point ${point} reached`)) {
        throw new Error(`berthd did not die at ${point}: ${JSON.stringify(status)}\n${env.daemon.stderr().slice(-4000)}`);
      }
    },
    podConfig: (name, extra = {}) => ({
      metadata: { name, uid: randomUUID(), namespace: 'berth-test', attempt: 0 },
      hostname: name,
      log_directory: join(scratch, name),
      linux: {
        cgroup_parent: cgroupParent,
        security_context: { namespace_options: { network: 'POD', pid: 'CONTAINER', ipc: 'POD' } },
      },
      ...extra,
    }),
    containerConfig(pod, name, command, extra = {}) {
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
      const config = env.podConfig(name, extra);
      const { pod_sandbox_id } = await env.client.runtime.RunPodSandbox({ config }, deadline());
      return { podId: pod_sandbox_id, config };
    },
    async create(podId, pod, name, command, extra) {
      const config = env.containerConfig(pod, name, command, extra);
      const { container_id } = await env.client.runtime.CreateContainer({ pod_sandbox_id: podId, config, sandbox_config: pod }, deadline());
      return container_id;
    },
    async status(id) {
      return (await env.client.runtime.ContainerStatus({ container_id: id })).status!;
    },
    async waitState(id, state) {
      const giveUp = Date.now() + 60_000;
      for (;;) {
        const s = await env.status(id);
        if (s.state === state) return s;
        if (Date.now() > giveUp) throw new Error(`container ${id} stayed ${s.state}, never ${state}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    async removeAll() {
      for (const pod of (await env.client.runtime.ListPodSandbox({})).items) {
        await env.client.runtime.RemovePodSandbox({ pod_sandbox_id: pod.id }, deadline());
      }
    },
    async close() {
      try {
        if (env.daemon !== undefined) {
          const alive = await Promise.race([env.daemon.exited.then(() => false), Promise.resolve(true)]);
          if (alive) await env.removeAll().catch(() => undefined);
          env.client.close();
          await env.daemon.stop();
        }
      } finally {
        // Only does something when a test failed half way: nothing may outlive the env.
        scrubHost({ dir, socket: join(dir, 'berth.sock'), cgroupParent });
        const giveUp = Date.now() + 10_000;
        while (leafCgroups(cgroupParent).some((l) => cgroupPids(l).length > 0) && Date.now() < giveUp) {
          await new Promise((r) => setTimeout(r, 50));
        }
        cni.cleanup();
        removeCgroupParent(cgroupParent);
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
  return env;
}

// One real berthd for the container suites: its own CNI bridge and subnet, its own cgroup parent,
// pod log dirs under a scratch dir, the busybox and pause images imported through Admin/ImportImage.
// close() removes pods left behind (through the CRI), stops berthd, and removes the bridge, the
// cgroup parent it made and the scratch dir.
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ContainerConfig } from '../../../internal/api/gen/runtime/v1/ContainerConfig';
import type { ContainerStatus__Output } from '../../../internal/api/gen/runtime/v1/ContainerStatus';
import type { PodSandboxConfig } from '../../../internal/api/gen/runtime/v1/PodSandboxConfig';
import { createCniTestEnv, SYSTEM_CNI_BIN_DIR, type CniTestEnv } from '../../harness/cni';
import { criClient, type CriClient } from '../../harness/cri_client';
import { startBerthd, type RunningBerthd } from '../../harness/daemon';
import { BUSYBOX_IMAGE, testImages } from '../../harness/images';

const CGROUP_ROOT = '/sys/fs/cgroup';
export const MAX_LOG_LINE = 16;

export interface ContainerSuite {
  daemon: RunningBerthd;
  client: CriClient;
  cni: CniTestEnv;
  scratch: string;
  /** "/berth-ctr-<hex>": every pod of the suite runs under it. */
  cgroupParent: string;
  podConfig(name: string, extra?: Partial<PodSandboxConfig>): PodSandboxConfig;
  runPod(name: string, extra?: Partial<PodSandboxConfig>): Promise<{ podId: string; config: PodSandboxConfig }>;
  /** CreateContainer of a busybox container running `command`. */
  create(podId: string, pod: PodSandboxConfig, name: string, command: string[], extra?: Partial<ContainerConfig>): Promise<string>;
  status(id: string): Promise<ContainerStatus__Output>;
  /** Polls ContainerStatus until `state` (a guard against hanging, not a timing assertion). */
  waitState(id: string, state: string): Promise<ContainerStatus__Output>;
  close(): Promise<void>;
}

function cgroupDirs(parent: string): string[] {
  return readdirSync(CGROUP_ROOT)
    .map((h) => join(CGROUP_ROOT, h, parent))
    .filter((p) => existsSync(p) && statSync(p).isDirectory());
}

/** rmdir of the suite's cgroup parent in every hierarchy (runc removed the leaves). */
function removeCgroupParent(parent: string): void {
  if (!/^\/berth-ctr-[0-9a-f]+$/.test(parent)) throw new Error(`refusing to remove cgroup ${parent}`);
  const removeTree = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) if (e.isDirectory()) removeTree(join(dir, e.name));
    rmdirSync(dir);
  };
  for (const dir of cgroupDirs(parent)) removeTree(dir);
}

export function leftoverCgroups(parent: string): string[] {
  return cgroupDirs(parent).flatMap((dir) =>
    readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => join(dir, e.name)),
  );
}

/** PIDs of containerd-shim-runc-v2 processes serving this berthd (their -address is its socket). */
export function shimPidsOf(socket: string): number[] {
  const pids: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const argv = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0');
      if (argv[0]?.includes('containerd-shim-runc-v2') && argv.includes(socket)) pids.push(Number(name));
    } catch {
      // exited meanwhile
    }
  }
  return pids;
}

/** Mount points under `dir` (overlay rootfs, shm) still in this mount namespace. */
export function mountsUnder(dir: string): string[] {
  return readFileSync('/proc/self/mountinfo', 'utf8')
    .split('\n')
    .map((l) => l.split(' ')[4] ?? '')
    .filter((p) => p.startsWith(dir));
}

export async function startContainerSuite(): Promise<ContainerSuite> {
  const paths = await testImages();
  const cni = createCniTestEnv();
  const scratch = mkdtempSync(join(tmpdir(), 'berth-ctr-'));
  const cgroupParent = `/berth-ctr-${randomBytes(4).toString('hex')}`;
  let daemon: RunningBerthd | undefined;
  let client: CriClient | undefined;
  try {
    daemon = await startBerthd({
      configToml: `[cri]
restrict_oom_score_adj = true
max_container_log_line_size = ${MAX_LOG_LINE}

[cni]
bin_dirs = [${JSON.stringify(SYSTEM_CNI_BIN_DIR)}]
conf_dir = ${JSON.stringify(cni.confDir)}
`,
    });
    client = criClient(daemon.socket);
    await client.admin.ImportImage({ path: paths.busyboxOci, name: '' });
    await client.admin.ImportImage({ path: paths.pauseOci, name: '' });
  } catch (err) {
    client?.close();
    await daemon?.stop();
    cni.cleanup();
    rmSync(scratch, { recursive: true, force: true });
    throw err;
  }
  const d = daemon;
  const c = client;
  const deadline = () => ({ deadline: Date.now() + 120_000 });

  const suite: ContainerSuite = {
    daemon: d,
    client: c,
    cni,
    scratch,
    cgroupParent,
    podConfig: (name, extra = {}) => ({
      metadata: { name, uid: randomUUID(), namespace: 'berth-test', attempt: 0 },
      hostname: name,
      log_directory: join(scratch, 'pods', name),
      linux: {
        cgroup_parent: cgroupParent,
        security_context: { namespace_options: { network: 'POD', pid: 'CONTAINER', ipc: 'POD' } },
      },
      ...extra,
    }),
    async runPod(name, extra) {
      const config = suite.podConfig(name, extra);
      const { pod_sandbox_id } = await c.runtime.RunPodSandbox({ config }, deadline());
      return { podId: pod_sandbox_id, config };
    },
    async create(podId, pod, name, command, extra = {}) {
      // kubelet copies the pod's namespace modes into each container's security context.
      const linux = extra.linux ?? {};
      const securityContext = linux.security_context ?? {};
      const config: ContainerConfig = {
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
      const { container_id } = await c.runtime.CreateContainer({ pod_sandbox_id: podId, config, sandbox_config: pod }, deadline());
      return container_id;
    },
    async status(id) {
      return (await c.runtime.ContainerStatus({ container_id: id })).status!;
    },
    async waitState(id, state) {
      const giveUp = Date.now() + 60_000;
      for (;;) {
        const s = await suite.status(id);
        if (s.state === state) return s;
        if (Date.now() > giveUp) throw new Error(`container ${id} stayed ${s.state}, never ${state}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    async close() {
      try {
        const { items } = await c.runtime.ListPodSandbox({});
        for (const pod of items) await c.runtime.RemovePodSandbox({ pod_sandbox_id: pod.id }, deadline()).catch(() => undefined);
      } finally {
        c.close();
        await d.stop();
        cni.cleanup();
        removeCgroupParent(cgroupParent);
        rmSync(scratch, { recursive: true, force: true });
      }
    },
  };
  return suite;
}

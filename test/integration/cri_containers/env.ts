// One real berthd for the container suites: its own CNI bridge and subnet, its own cgroup parent,
// pod log dirs under a scratch dir, the busybox and pause images imported through Admin/ImportImage.
// close() removes pods left behind (through the CRI), stops berthd, and removes the bridge, the
// cgroup parent it made and the scratch dir.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deadline, importTestImages, podDriver, testBerthToml, type PodDriver } from '../../harness/berth_env';
import { removeCgroupParent } from '../../harness/cgroups';
import { createCniTestEnv, type CniTestEnv } from '../../harness/cni';
import { criClient, type CriClient } from '../../harness/cri_client';
import { startBerthd, type RunningBerthd } from '../../harness/daemon';
import { testImages } from '../../harness/images';

export { leafCgroups as leftoverCgroups } from '../../harness/cgroups';

export const MAX_LOG_LINE = 16;

export interface ContainerSuite extends PodDriver {
  daemon: RunningBerthd;
  client: CriClient;
  cni: CniTestEnv;
  scratch: string;
  /** "/berth-ctr-<hex>": every pod of the suite runs under it. */
  cgroupParent: string;
  close(): Promise<void>;
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

/** `env`: extra environment for the daemon (e.g. Node flags through NODE_OPTIONS). */
export async function startContainerSuite(opts: { env?: NodeJS.ProcessEnv } = {}): Promise<ContainerSuite> {
  await testImages();
  const cni = createCniTestEnv();
  const scratch = mkdtempSync(join(tmpdir(), 'berth-ctr-'));
  const cgroupParent = `/berth-ctr-${randomBytes(4).toString('hex')}`;
  let daemon: RunningBerthd | undefined;
  let client: CriClient | undefined;
  try {
    daemon = await startBerthd({ configToml: testBerthToml(cni, { criToml: `max_container_log_line_size = ${MAX_LOG_LINE}` }), env: opts.env });
    client = criClient(daemon.socket);
    await importTestImages(client);
  } catch (err) {
    client?.close();
    await daemon?.stop();
    cni.cleanup();
    rmSync(scratch, { recursive: true, force: true });
    throw err;
  }
  const d = daemon;
  const c = client;

  return {
    daemon: d,
    client: c,
    cni,
    scratch,
    cgroupParent,
    ...podDriver({ client: () => c, cgroupParent, logDirectory: (name) => join(scratch, 'pods', name) }),
    async close() {
      try {
        const { items } = await c.runtime.ListPodSandbox({});
        for (const pod of items) await c.runtime.RemovePodSandbox({ pod_sandbox_id: pod.id }, deadline()).catch(() => undefined);
      } finally {
        c.close();
        await d.stop();
        cni.cleanup();
        removeCgroupParent(cgroupParent, '/berth-ctr-');
        rmSync(scratch, { recursive: true, force: true });
      }
    },
  };
}

// A real berthd whose root, state and socket outlive the process: the recovery, hostile-input and
// concurrency suites start it, crash it (BERTH_CRASH_AT) or stop it, and start it again on the same
// directories. Each env has its own CNI bridge and subnet, cgroup parent and pod log dirs; the
// busybox and pause images are imported once through Admin/ImportImage and stay in the root.
// close() removes what is left through the CRI, stops berthd and removes everything it made.
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { removeTreeSync } from '../../../internal/fs/remove_tree';
import { deadline, importTestImages, podDriver, testBerthToml, type PodDriver } from '../../harness/berth_env';
import { cgroupPids, leafCgroups, removeCgroupParent } from '../../harness/cgroups';
import { createCniTestEnv, type CniTestEnv } from '../../harness/cni';
import { criClient, type CriClient } from '../../harness/cri_client';
import { startBerthd, type ExitStatus, type RunningBerthd } from '../../harness/daemon';
import { testImages } from '../../harness/images';
import { scrubHost, type HostView } from './host_state';

export { deadline } from '../../harness/berth_env';

export const SLEEPER = ['sh', '-c', 'trap "exit 0" TERM; sleep 3600 & wait'];
/** Writes "tick <n>" every 100 ms: a log that must keep flowing across restarts. */
export const TICKER = ['sh', '-c', 'i=0; while true; do i=$((i+1)); echo tick $i; sleep 0.1; done'];

export interface EnvOptions {
  /** Extra berth.toml text appended to the env's own ([cri] and [cni] are taken), given the env's dir. */
  extraToml?: (dir: string) => string;
  /** Extra [cri] keys (TOML lines). */
  criToml?: string;
}

export interface BerthEnv extends PodDriver {
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
  /** What leaks() and the clean-host checks look at for this env (its daemon as it is now). */
  host(): HostView;
  /** Removes every pod through the CRI (what kubelet does when it gives up on a node). */
  removeAll(): Promise<void>;
  close(): Promise<void>;
}

export async function createBerthEnv(opts: EnvOptions = {}): Promise<BerthEnv> {
  await testImages();
  const cni = createCniTestEnv();
  const dir = mkdtempSync(join(tmpdir(), 'berth-rec-'));
  const scratch = join(dir, 'logs');
  const cgroupParent = `/berth-rec-${randomBytes(4).toString('hex')}`;
  const configToml = testBerthToml(cni, { criToml: opts.criToml, extraToml: opts.extraToml?.(dir) });
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
        await importTestImages(env.client);
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
    ...podDriver({ client: () => env.client, cgroupParent, logDirectory: (name) => join(scratch, name) }),
    host: () => ({
      root: env.daemon.root,
      state: env.daemon.state,
      dir: env.dir,
      socket: env.daemon.socket,
      cgroupParent: env.cgroupParent,
      allocatedIPs: () => env.cni.allocatedIPs(),
    }),
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
        removeCgroupParent(cgroupParent, '/berth-rec-');
        // A failed test may leave a tree deeper than a path can name (deep_tree.test.ts).
        removeTreeSync(dir);
      }
    },
  };
  return env;
}

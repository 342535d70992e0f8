// One runtime's pass on a cluster of its own: the runtime (test/e2e/runtimes.ts: private daemon,
// CNI bridge, cgroup root, test images imported), a fresh control plane, the kubelet joined to it,
// the node waited Ready and untainted, then each check in a namespace of its own that is deleted
// after it (its pods leave through the kubelet). Then everything undone newest first: kubelet,
// scheduler, controller-manager, apiserver, etcd by PID, the runtime, its cgroups and bridge.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { CleanupStack } from '../../bench/cleanup';
import { unmountUnder } from '../../bench/mounts';
import { PAUSE_IMAGE } from '../../harness/images';
import { bindVarLog } from '../private_mounts';
import type { Outcome, RuntimeResult } from '../report';
import { startRuntime, type RuntimeName } from '../runtimes';
import type { ClusterCheck, ClusterContext } from './cluster_check';
import { startControlPlane, type ClusterBinaries } from './control_plane';
import { Kubectl } from './kubectl';
import { NODE_NAME, startNodeKubelet } from './node_kubelet';

export interface ClusterRunOptions {
  bin: ClusterBinaries;
  runDir: string;
  runId: string;
  images: string[];
  checks: readonly ClusterCheck[];
  log(line: string): void;
  aborted(): boolean;
}

const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err));

interface NodeObject {
  spec?: { taints?: { key: string; effect: string }[] };
  status?: { conditions?: { type: string; status: string; message?: string }[] };
}

/** Waits until the node is registered, Ready, and carries no NoSchedule taint (the controller-manager lifts not-ready). */
async function waitNodeSchedulable(kubectl: Kubectl, timeoutMs = 180_000): Promise<void> {
  const giveUp = Date.now() + timeoutMs;
  let last = 'not registered';
  for (;;) {
    const r = await kubectl.run(['get', 'node', NODE_NAME, '-o', 'json'], { allowFailure: true });
    if (r.code === 0) {
      const node = JSON.parse(r.stdout) as NodeObject;
      const ready = node.status?.conditions?.find((c) => c.type === 'Ready');
      const blocking = (node.spec?.taints ?? []).filter((t) => t.effect === 'NoSchedule' || t.effect === 'NoExecute');
      if (ready?.status === 'True' && blocking.length === 0) return;
      last = `Ready=${ready?.status} (${ready?.message ?? ''}), taints ${blocking.map((t) => t.key).join(', ')}`;
    }
    if (Date.now() > giveUp) throw new Error(`node ${NODE_NAME} not schedulable after ${timeoutMs / 1000} s: ${last}`);
    await new Promise((res) => setTimeout(res, 500));
  }
}

export async function runClusterOnRuntime(name: RuntimeName, opts: ClusterRunOptions): Promise<RuntimeResult> {
  const result: RuntimeResult = { outcomes: {}, latencies: {}, cleanupFailures: [] };
  const cleanup = new CleanupStack();
  const log = (line: string) => opts.log(`${name}: ${line}`);
  try {
    cleanup.push('/var/log bind', bindVarLog(join(opts.runDir, `var-log-${name}`)));
    const runtime = await startRuntime(name, opts.runDir, opts.runId, opts.images, cleanup);
    log(`runtime pid ${runtime.peer.pid}, bridge ${runtime.cni.bridge} ${runtime.cni.subnet}, cgroup root ${runtime.cgroupRoot}`);
    const plane = await startControlPlane(opts.bin, join(opts.runDir, `control-plane-${name}`), cleanup, log);
    const kubectl = new Kubectl(opts.bin.kubectl, plane.kubeconfig);
    cleanup.push('kubectl streams', () => kubectl.stopAll());
    const nodeDir = join(opts.runDir, `node-${name}`);
    // The kubelet bind-mounts its root dir onto itself (to make it rshared): unmounted once it is gone.
    cleanup.push(`kubelet mounts under ${nodeDir}`, () => void unmountUnder(nodeDir));
    const kubelet = await startNodeKubelet({ binary: opts.bin.kubelet, dir: nodeDir, kubeconfig: plane.kubeconfig, runtime, podInfraImage: PAUSE_IMAGE });
    cleanup.push(`kubelet (pid ${kubelet.pid})`, () => kubelet.stop());
    log(`kubelet pid ${kubelet.pid}, log ${kubelet.logPath}`);
    await waitNodeSchedulable(kubectl);
    const scratchDir = join(opts.runDir, `scratch-${name}`);
    mkdirSync(scratchDir, { recursive: true });
    const latencies = new Map<string, number>();
    for (const check of opts.checks) {
      if (opts.aborted()) break;
      const namespace = `e2e-${check.id}`;
      const ctx: ClusterContext = { kubectl: kubectl.inNamespace(namespace), namespace, scratchDir, log, latencies };
      log(`${check.id} ${check.title}...`);
      const start = Date.now();
      let outcome: Outcome;
      try {
        await kubectl.run(['create', 'namespace', namespace]);
        await check.run(ctx);
        outcome = { ok: true, ms: Date.now() - start };
      } catch (err) {
        outcome = { ok: false, ms: Date.now() - start, error: messageOf(err) };
      }
      result.outcomes[check.id] = outcome;
      log(`${check.id}: ${outcome.ok ? 'pass' : `FAIL: ${'error' in outcome ? outcome.error : ''}`}`);
      await kubectl.stopAll();
      // Deleting the namespace deletes what the check made; the kubelet stops the pods.
      const gone = await kubectl.run(['delete', 'namespace', namespace, '--ignore-not-found', '--timeout=180s'], { allowFailure: true, timeoutMs: 240_000 });
      if (gone.code !== 0) log(`after ${check.id}: namespace ${namespace} not deleted: ${gone.stderr.trim()}`);
    }
    result.latencies = Object.fromEntries(latencies);
  } catch (err) {
    result.fatal = messageOf(err);
    log(`could not run: ${result.fatal}`);
  } finally {
    result.cleanupFailures = await cleanup.runAll();
  }
  return result;
}

// What one e2e check is: a name (its letter is the list item), and a run against one
// kubelet+runtime pair that throws with what a user would have seen when the check fails. Pods a
// check starts are removed by the runner afterwards whatever happened.
import type { Kubelet } from './kubelet';
import type { E2eRuntime } from './runtimes';
import type { Pod } from './pod_types';
import { allReady, fullName, removeManifest, waitForPod, waitGone, writeManifest } from './pods';

export interface E2eContext {
  kubelet: Kubelet;
  runtime: E2eRuntime;
  /** The run's temp dir for this runtime (hostPath volumes, scratch files). */
  scratchDir: string;
  log(line: string): void;
  /** "manifest written -> all containers Ready", per pod, in ms. */
  latencies: Map<string, number>;
  /** Manifests a check wrote, removed by the runner after the check. */
  started: Set<string>;
}

export interface Check {
  id: string;
  title: string;
  run(ctx: E2eContext): Promise<void>;
}

const msSince = (t: bigint) => Number(process.hrtime.bigint() - t) / 1e6;

/** Writes a manifest; the runner removes it after the check. */
export function startPod(ctx: E2eContext, pod: Pod): bigint {
  ctx.started.add(pod.metadata.name);
  return writeManifest(ctx.kubelet, pod);
}

/** Starts a pod and waits until every container is Ready, recording the startup latency. */
export async function startReadyPod(ctx: E2eContext, pod: Pod, timeoutMs = 90_000): Promise<Pod> {
  const written = startPod(ctx, pod);
  const ready = await waitForPod(ctx.kubelet, pod.metadata.name, 'all containers Ready', allReady, timeoutMs);
  ctx.latencies.set(pod.metadata.name, msSince(written));
  return ready;
}

/**
 * Removes a pod's manifest and waits until the kubelet no longer lists it and the runtime runs
 * none of its containers: a standalone kubelet drops a static pod from /pods at once, while its
 * containers are still in their grace period.
 */
export async function deletePod(ctx: E2eContext, base: string): Promise<void> {
  removeManifest(ctx.kubelet, base);
  ctx.started.delete(base);
  await waitGone(ctx.kubelet, base);
  const filter = { label_selector: { 'io.kubernetes.pod.name': fullName(base) } };
  const giveUp = Date.now() + 120_000;
  for (;;) {
    const running = (await ctx.runtime.peer.cri.runtime.ListContainers({ filter })).containers.filter((c) => c.state === 'CONTAINER_RUNNING');
    if (running.length === 0) return;
    if (Date.now() > giveUp) throw new Error(`${base}: containers ${running.map((c) => c.metadata?.name).join(', ')} still running 120 s after the pod was deleted`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

export function expect(cond: boolean, message: string): void {
  if (!cond) throw new Error(message);
}

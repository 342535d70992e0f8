// Static pods as a user of a standalone kubelet has them: a manifest file written into the
// kubelet's --pod-manifest-path (atomically: kubelet ignores dot-files, so write one and rename),
// removed to delete the pod; statuses read back from the kubelet's /pods. A static pod's name is
// "<manifest name>-<node name>".
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { NODE_NAME, type Kubelet } from './kubelet';
import type { ContainerStatus, Pod } from './pod_types';

export const NAMESPACE = 'e2e';

export const fullName = (base: string): string => `${base}-${NODE_NAME}`;

export interface PodSpecInput {
  name: string;
  spec: Record<string, unknown> & { containers: Record<string, unknown>[] };
}

/** Every container runs the busybox test image, never pulled. */
export function manifest(input: PodSpecInput): Pod {
  const withImage = (c: Record<string, unknown>) => ({ image: 'docker.io/library/busybox:latest', imagePullPolicy: 'Never', ...c });
  const spec = { ...input.spec, containers: input.spec.containers.map(withImage) } as Pod['spec'];
  if (Array.isArray(input.spec.initContainers)) spec.initContainers = (input.spec.initContainers as Record<string, unknown>[]).map(withImage);
  return { apiVersion: 'v1', kind: 'Pod', metadata: { name: input.name, namespace: NAMESPACE }, spec: { terminationGracePeriodSeconds: 2, ...spec } };
}

/** Writes the manifest; returns the time it appeared, for startup latency. */
export function writeManifest(kubelet: Kubelet, pod: Pod): bigint {
  const tmp = join(kubelet.manifestDir, `.${pod.metadata.name}.json.tmp`);
  writeFileSync(tmp, JSON.stringify(pod, null, 2));
  renameSync(tmp, join(kubelet.manifestDir, `${pod.metadata.name}.json`));
  return process.hrtime.bigint();
}

export function removeManifest(kubelet: Kubelet, base: string): void {
  rmSync(join(kubelet.manifestDir, `${base}.json`), { force: true });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A short description of a pod's status for failure messages. */
export function describeStatus(pod: Pod | undefined): string {
  if (!pod) return 'pod not listed by the kubelet';
  const s = pod.status ?? {};
  const one = (c: ContainerStatus) => `${c.name}: ready=${c.ready} restarts=${c.restartCount} state=${JSON.stringify(c.state)} last=${JSON.stringify(c.lastState)}`;
  return `phase=${s.phase} ip=${s.podIP ?? ''} init=[${(s.initContainerStatuses ?? []).map(one).join('; ')}] containers=[${(s.containerStatuses ?? []).map(one).join('; ')}]`;
}

/**
 * Polls the kubelet's /pods until `cond` holds for the pod; throws with the last status seen after
 * `timeoutMs` (a bound against hanging, not a timing assertion).
 */
export async function waitForPod(kubelet: Kubelet, base: string, what: string, cond: (p: Pod) => boolean, timeoutMs = 90_000): Promise<Pod> {
  const giveUp = Date.now() + timeoutMs;
  let last: Pod | undefined;
  for (;;) {
    last = await kubelet.api.pod(NAMESPACE, fullName(base));
    if (last && cond(last)) return last;
    if (Date.now() > giveUp) throw new Error(`${base}: never ${what} within ${timeoutMs / 1000} s; last: ${describeStatus(last)}`);
    await sleep(100);
  }
}

export const containerStatus = (pod: Pod, name: string): ContainerStatus | undefined =>
  [...(pod.status?.containerStatuses ?? []), ...(pod.status?.initContainerStatuses ?? [])].find((c) => c.name === name);

export const allReady = (p: Pod): boolean => {
  const cs = p.status?.containerStatuses ?? [];
  return cs.length === p.spec.containers.length && cs.every((c) => c.ready);
};

export async function waitGone(kubelet: Kubelet, base: string, timeoutMs = 90_000): Promise<void> {
  const giveUp = Date.now() + timeoutMs;
  while ((await kubelet.api.pod(NAMESPACE, fullName(base))) !== undefined) {
    if (Date.now() > giveUp) throw new Error(`${base}: still listed by the kubelet ${timeoutMs / 1000} s after its manifest was removed`);
    await sleep(200);
  }
}

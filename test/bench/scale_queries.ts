// The read calls the kubelet makes against a full node, each timed on its own (one call in flight)
// with every pod of the scale scenario running: the lists unfiltered and with the filters the
// kubelet sends (state RUNNING, one pod's sandbox ID, one pod's UID label), the status calls for
// every pod and container, and the stats calls. A list that leaves out pods or containers the
// bench started is an error, not a fast answer.
import { Aborted, RpcFailed } from './errors';
import { CONTAINER_NAMES, POD_UID_LABEL, type KubeletPod } from './kubelet_pod';
import type { BenchContext } from './pods';
import type { Peer } from './peers/peer';
import { msSince } from './stats';

/**
 * Rounds of the list calls and ImageFsInfo: enough that a p99 is not just the slowest of a few
 * (the status calls go once over every pod and container, 110 and 220 samples).
 */
export const LIST_CALLS = 100;
/** Rounds of the stats calls, the first ones of the list rounds: containerd 1.6 takes ~8 s per ListPodSandboxStats at 110 pods. */
export const STATS_CALLS = 20;

export const QUERY_FIGURES = [
  'ListPodSandbox',
  'ListPodSandbox (pod-UID label)',
  'ListContainers',
  'ListContainers (state RUNNING)',
  'ListContainers (pod_sandbox_id)',
  'ListContainers (pod-UID label)',
  'PodSandboxStatus',
  'ContainerStatus',
  'ListContainerStats',
  'ListPodSandboxStats',
  'ImageFsInfo',
] as const;
export type QueryFigure = (typeof QUERY_FIGURES)[number];

const RPC_DEADLINE_MS = 120_000;
const opts = () => ({ deadline: Date.now() + RPC_DEADLINE_MS });

/** Where the timings go: one figure's latency, or the failure that ends that figure (the others go on). */
export interface QuerySink {
  record(figure: QueryFigure, ms: number): void;
  fail(figure: QueryFigure, err: unknown): void;
  failed(figure: QueryFigure): boolean;
}

/** A list answered without some of the bench's pods or containers. */
class ShortList extends Error {
  override name = 'ShortList';
}

/** Times `call` (the RPC `rpc`, answering how many items it listed) for `figure`, unless that figure already failed. */
async function timed(sink: QuerySink, figure: QueryFigure, rpc: string, atLeast: number, call: () => Promise<number>): Promise<void> {
  if (sink.failed(figure)) return;
  const start = process.hrtime.bigint();
  try {
    const count = await call();
    const ms = msSince(start);
    if (count < atLeast) throw new ShortList(`${rpc}: ${count} items, want at least ${atLeast}`);
    sink.record(figure, ms);
  } catch (err) {
    sink.fail(figure, err instanceof ShortList ? err : new RpcFailed(rpc, err));
  }
}

export async function measureQueries(peer: Peer, pods: readonly KubeletPod[], ctx: BenchContext, sink: QuerySink): Promise<void> {
  const { runtime, image } = peer.cri;
  const podCount = pods.length;
  const containerCount = podCount * CONTAINER_NAMES.length;
  const perPod = CONTAINER_NAMES.length;
  for (let i = 0; i < LIST_CALLS; i++) {
    if (ctx.aborted()) throw new Aborted();
    const pod = pods[i % podCount]!;
    const uid = { [POD_UID_LABEL]: pod.uid };
    const running = { state: { state: 'CONTAINER_RUNNING' as const } };
    await timed(sink, 'ListPodSandbox', 'ListPodSandbox', podCount, async () => (await runtime.ListPodSandbox({}, opts())).items.length);
    await timed(sink, 'ListPodSandbox (pod-UID label)', 'ListPodSandbox', 1, async () =>
      (await runtime.ListPodSandbox({ filter: { label_selector: uid } }, opts())).items.length,
    );
    await timed(sink, 'ListContainers', 'ListContainers', containerCount, async () => (await runtime.ListContainers({}, opts())).containers.length);
    await timed(sink, 'ListContainers (state RUNNING)', 'ListContainers', containerCount, async () =>
      (await runtime.ListContainers({ filter: running }, opts())).containers.length,
    );
    await timed(sink, 'ListContainers (pod_sandbox_id)', 'ListContainers', perPod, async () =>
      (await runtime.ListContainers({ filter: { pod_sandbox_id: pod.podId } }, opts())).containers.length,
    );
    await timed(sink, 'ListContainers (pod-UID label)', 'ListContainers', perPod, async () =>
      (await runtime.ListContainers({ filter: { label_selector: uid } }, opts())).containers.length,
    );
    if (i < STATS_CALLS) {
      await timed(sink, 'ListContainerStats', 'ListContainerStats', containerCount, async () =>
        (await runtime.ListContainerStats({}, opts())).stats.length,
      );
      await timed(sink, 'ListPodSandboxStats', 'ListPodSandboxStats', podCount, async () =>
        (await runtime.ListPodSandboxStats({}, opts())).stats.length,
      );
    }
    await timed(sink, 'ImageFsInfo', 'ImageFsInfo', 1, async () => (await image.ImageFsInfo({}, opts())).image_filesystems.length);
  }
  for (const pod of pods) {
    if (ctx.aborted()) throw new Aborted();
    await timed(sink, 'PodSandboxStatus', 'PodSandboxStatus', 1, async () =>
      (await runtime.PodSandboxStatus({ pod_sandbox_id: pod.podId }, opts())).status ? 1 : 0,
    );
    for (const id of pod.containerIds) {
      await timed(sink, 'ContainerStatus', 'ContainerStatus', 1, async () =>
        (await runtime.ContainerStatus({ container_id: id }, opts())).status ? 1 : 0,
      );
    }
  }
}

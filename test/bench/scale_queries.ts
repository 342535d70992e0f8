// The read calls the kubelet makes against a full node, each timed on its own (one call in flight)
// with every pod of the scale scenario running: the lists unfiltered and with the filters the
// kubelet sends (state RUNNING, one pod's sandbox ID, one pod's UID label), the status calls for
// every pod and container, and the stats calls. A list that leaves out pods or containers the
// bench started is an error, not a fast answer. The client collects its own young garbage before
// each timed call (client_gc.ts), so its scavenges are not timed as the daemon's latency.
import type { CriClient } from '../harness/cri_client';
import { collectClientGarbage } from './client_gc';
import { Aborted, RpcFailed } from './errors';
import { CONTAINER_NAMES, POD_UID_LABEL, type KubeletPod } from './kubelet_pod';
import type { BenchContext } from './pods';
import { msSince } from './stats';

/**
 * Rounds of the list calls and ImageFsInfo. A p99 is then the 5th-slowest call: of 100 it was the
 * 2nd-slowest, and the ratio of two runtimes' p99s moved between 0.8x and 2x from run to run of the
 * same builds, on a 2-core machine where most slow calls overlapped no GC of either side.
 */
export const LIST_CALLS = 500;
/** Passes of the status calls over every pod and container (330 and 660 samples at 110 pods). */
export const STATUS_PASSES = 3;
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

/** Where the timings go: one figure's latency and answer, or the failure that ends that figure (the others go on). */
export interface QuerySink {
  record(figure: QueryFigure, ms: number, response: Answer): void;
  fail(figure: QueryFigure, err: unknown): void;
  failed(figure: QueryFigure): boolean;
}

/** A decoded answer, as the CRI client gives it. */
export type Answer = Record<string, unknown>;

/** One timed call: the RPC, its request, and the field of the answer holding what it lists. */
export interface Query {
  figure: QueryFigure;
  service: 'runtime' | 'image';
  method: string;
  request: Record<string, unknown>;
  /** The answer's list (its length counts) or message (counts 1). */
  listed: string;
  /** Fewer listed items than this is an error, not a fast answer. */
  atLeast: number;
}

/** A list answered without some of the bench's pods or containers. */
class ShortList extends Error {
  override name = 'ShortList';
}

function countListed(answer: Answer, field: string): number {
  const listed = answer[field];
  if (Array.isArray(listed)) return listed.length;
  return listed === undefined || listed === null ? 0 : 1;
}

type UnaryCall = (request: Record<string, unknown>, options: { deadline: number }) => Promise<Answer>;

/** The promise client's method for `query` on `cri`. */
function callOf(cri: CriClient, query: Query): UnaryCall {
  const service = cri[query.service] as unknown as Record<string, UnaryCall | undefined>;
  const call = service[query.method];
  if (call === undefined) throw new Error(`the CRI client has no ${query.service} ${query.method}`);
  return call;
}

/** Times one query on `cri`, unless its figure already failed. */
async function timed(cri: CriClient, query: Query, sink: QuerySink): Promise<void> {
  const { figure, method } = query;
  if (sink.failed(figure)) return;
  const call = callOf(cri, query);
  collectClientGarbage();
  const start = process.hrtime.bigint();
  try {
    const answer = await call(query.request, opts());
    const ms = msSince(start);
    const count = countListed(answer, query.listed);
    if (count < query.atLeast) throw new ShortList(`${method}: ${count} items, want at least ${query.atLeast}`);
    sink.record(figure, ms, answer);
  } catch (err) {
    sink.fail(figure, err instanceof ShortList ? err : new RpcFailed(method, err));
  }
}

/**
 * The calls, in the order they are made: LIST_CALLS rounds of the lists (a different pod's filters
 * each round), the stats calls in the first STATS_CALLS rounds (unless `withStats` is false) and
 * ImageFsInfo, then the status of every pod and container, STATUS_PASSES times.
 */
export function querySchedule(pods: readonly KubeletPod[], withStats = true): Query[] {
  const podCount = pods.length;
  const perPod = CONTAINER_NAMES.length;
  const containerCount = podCount * perPod;
  const runtime = (figure: QueryFigure, method: string, request: Record<string, unknown>, listed: string, atLeast: number): Query => ({
    figure,
    service: 'runtime',
    method,
    request,
    listed,
    atLeast,
  });
  const queries: Query[] = [];
  for (let i = 0; i < LIST_CALLS; i++) {
    const pod = pods[i % podCount]!;
    const uid = { label_selector: { [POD_UID_LABEL]: pod.uid } };
    const running = { state: { state: 'CONTAINER_RUNNING' } };
    queries.push(
      runtime('ListPodSandbox', 'ListPodSandbox', {}, 'items', podCount),
      runtime('ListPodSandbox (pod-UID label)', 'ListPodSandbox', { filter: uid }, 'items', 1),
      runtime('ListContainers', 'ListContainers', {}, 'containers', containerCount),
      runtime('ListContainers (state RUNNING)', 'ListContainers', { filter: running }, 'containers', containerCount),
      runtime('ListContainers (pod_sandbox_id)', 'ListContainers', { filter: { pod_sandbox_id: pod.podId } }, 'containers', perPod),
      runtime('ListContainers (pod-UID label)', 'ListContainers', { filter: uid }, 'containers', perPod),
    );
    if (withStats && i < STATS_CALLS) {
      queries.push(
        runtime('ListContainerStats', 'ListContainerStats', {}, 'stats', containerCount),
        runtime('ListPodSandboxStats', 'ListPodSandboxStats', {}, 'stats', podCount),
      );
    }
    queries.push({ figure: 'ImageFsInfo', service: 'image', method: 'ImageFsInfo', request: {}, listed: 'image_filesystems', atLeast: 1 });
  }
  for (let pass = 0; pass < STATUS_PASSES; pass++) {
    for (const pod of pods) {
      queries.push(runtime('PodSandboxStatus', 'PodSandboxStatus', { pod_sandbox_id: pod.podId }, 'status', 1));
      for (const id of pod.containerIds) queries.push(runtime('ContainerStatus', 'ContainerStatus', { container_id: id }, 'status', 1));
    }
  }
  return queries;
}

/** Runs `queries` on `cri` one at a time. */
export async function runQueries(cri: CriClient, queries: readonly Query[], ctx: BenchContext, sink: QuerySink): Promise<void> {
  for (const query of queries) {
    if (ctx.aborted()) throw new Aborted();
    await timed(cri, query, sink);
  }
}

// The kubelet's steady-state load on a runtime, for the scale scenario's CPU figure: the generic
// PLEG relists every second (ListPodSandbox + ListContainers, unfiltered) and inspects only the
// pods whose sandbox or container states changed since the last relist (ListPodSandbox and
// ListContainers by the pod-UID label, PodSandboxStatus and ContainerStatus for each); the
// eviction manager's summary asks every 10 s for ListContainerStats + ListPodSandboxStats +
// ImageFsInfo; and a GetContainerEvents stream stays open (the evented PLEG's). Both loops sleep
// their period after each pass ends, as the kubelet's wait.Until does. The snapshot the first
// relist compares with is taken by open(), outside the measured window, so the window is the
// steady state of a kubelet that has been running: with nothing changing, no pod is inspected.
import { status as GrpcStatus, type ClientReadableStream } from '@grpc/grpc-js';
import type { ContainerEventResponse__Output } from '../../internal/api/gen/runtime/v1/ContainerEventResponse';
import { Aborted, isUnimplemented, messageOf, RpcFailed } from './errors';
import { POD_UID_LABEL } from './kubelet_pod';
import type { BenchContext } from './pods';
import type { Peer } from './peers/peer';
import { pollCalls, type PollCalls, type PollConnection } from './poll_calls';

const RELIST_PERIOD_MS = 1_000;
const STATS_PERIOD_MS = 10_000;

/** Pod UID -> (sandbox or container ID -> state), what the PLEG compares between relists. */
type Snapshot = Map<string, Map<string, string>>;

export interface PollingResult {
  windowMs: number;
  relists: number;
  /** Pods the PLEG inspected because their states changed. */
  inspections: number;
  statsPasses: number;
  /** Events received on the stream, or why it was not open. */
  events: number | string;
  /** Stats calls the runtime answered UNIMPLEMENTED, left out of the passes. */
  unimplemented: string[];
}

async function rpc<T>(name: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    throw new RpcFailed(name, err);
  }
}

function sameStates(a: Map<string, string> | undefined, b: Map<string, string> | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  if (a.size !== b.size) return false;
  for (const [id, state] of a) if (b.get(id) !== state) return false;
  return true;
}

export class KubeletPoller {
  private snapshot: Snapshot = new Map();
  private events = 0;
  private streamError: string | undefined;
  private stopped = false;
  private readonly unimplemented = new Set<string>();

  private constructor(
    private readonly calls: PollCalls,
    private readonly ctx: BenchContext,
    private readonly stream: ClientReadableStream<ContainerEventResponse__Output>,
  ) {
    stream.on('data', () => void this.events++);
    stream.on('error', (err: Error & { code?: number }) => {
      if (!this.stopped || err.code !== GrpcStatus.CANCELLED) this.streamError ??= messageOf(err);
    });
  }

  /**
   * Opens the events stream and takes the PLEG's first snapshot (neither is in the window). The
   * polling calls go over `connection`; the events stream is always on the peer's long-lived client.
   */
  static async open(peer: Peer, ctx: BenchContext, connection: PollConnection = 'long-lived'): Promise<KubeletPoller> {
    const poller = new KubeletPoller(pollCalls(peer, connection), ctx, peer.cri.raw.runtime.GetContainerEvents({}));
    try {
      poller.snapshot = await poller.list();
    } catch (err) {
      poller.close();
      throw err;
    }
    return poller;
  }

  private async list(): Promise<Snapshot> {
    const { items } = await rpc('ListPodSandbox', () => this.calls.listPodSandbox({}));
    const { containers } = await rpc('ListContainers', () => this.calls.listContainers({}));
    const snapshot: Snapshot = new Map();
    const of = (uid: string) => snapshot.get(uid) ?? snapshot.set(uid, new Map()).get(uid)!;
    for (const pod of items) of(pod.metadata?.uid ?? '').set(pod.id, pod.state);
    for (const c of containers) of(c.labels[POD_UID_LABEL] ?? '').set(c.id, c.state);
    return snapshot;
  }

  /** What the kubelet's GetPodStatus asks of the runtime for one pod. */
  private async inspect(uid: string): Promise<void> {
    const label_selector = { [POD_UID_LABEL]: uid };
    const { items } = await rpc('ListPodSandbox', () => this.calls.listPodSandbox({ filter: { label_selector } }));
    for (const pod of items) {
      await rpc('PodSandboxStatus', () => this.calls.podSandboxStatus({ pod_sandbox_id: pod.id }));
    }
    const { containers } = await rpc('ListContainers', () => this.calls.listContainers({ filter: { label_selector } }));
    for (const c of containers) {
      await rpc('ContainerStatus', () => this.calls.containerStatus({ container_id: c.id }));
    }
  }

  /** One relist; returns how many pods it inspected. */
  private async relist(): Promise<number> {
    const next = await this.list();
    const changed = [...new Set([...this.snapshot.keys(), ...next.keys()])].filter(
      (uid) => next.has(uid) && !sameStates(this.snapshot.get(uid), next.get(uid)),
    );
    for (const uid of changed) await this.inspect(uid);
    this.snapshot = next;
    return changed.length;
  }

  /** The summary's calls; one the runtime does not implement is left out from then on (the kubelet falls back to cAdvisor). */
  private async statsPass(): Promise<void> {
    const calls: Array<[string, () => Promise<unknown>]> = [
      ['ListContainerStats', () => this.calls.listContainerStats()],
      ['ListPodSandboxStats', () => this.calls.listPodSandboxStats()],
      ['ImageFsInfo', () => this.calls.imageFsInfo()],
    ];
    for (const [name, call] of calls) {
      if (this.unimplemented.has(name)) continue;
      try {
        await rpc(name, call);
      } catch (err) {
        if (!isUnimplemented(err)) throw err;
        this.unimplemented.add(name);
      }
    }
  }

  /** Runs `pass` until `endsAt`, sleeping `periodMs` after each; a failure stops the other loop too. */
  private async loop(endsAt: number, periodMs: number, pass: () => Promise<void>): Promise<void> {
    try {
      while (!this.stopped && Date.now() < endsAt) {
        if (this.ctx.aborted()) throw new Aborted();
        await pass();
        await new Promise((r) => setTimeout(r, Math.max(0, Math.min(periodMs, endsAt - Date.now()))));
      }
    } catch (err) {
      this.stopped = true;
      throw err;
    }
  }

  /** The measured window: both loops for `seconds`, from now. */
  async run(seconds: number): Promise<PollingResult> {
    const start = Date.now();
    const endsAt = start + seconds * 1000;
    let relists = 0;
    let inspections = 0;
    let statsPasses = 0;
    await Promise.all([
      this.loop(endsAt, RELIST_PERIOD_MS, async () => {
        inspections += await this.relist();
        relists++;
      }),
      this.loop(endsAt, STATS_PERIOD_MS, async () => {
        await this.statsPass();
        statsPasses++;
      }),
    ]);
    const windowMs = Date.now() - start;
    return { windowMs, relists, inspections, statsPasses, events: this.streamError ?? this.events, unimplemented: [...this.unimplemented] };
  }

  close(): void {
    this.stopped = true;
    this.stream.on('error', () => undefined);
    this.stream.cancel();
  }
}

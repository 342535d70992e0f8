// ImageFsInfo: how much disk the image filesystem uses — every snapshot's own directory under
// <root>/overlayfs plus the content store's blobs. As containerd's snapshot syncer does, a committed
// snapshot (immutable) is measured once, and an active one (a container's writable layer) is read
// from the figures container stats keep, measured at most once per 10 s for both; a walk of every
// layer on each call cost more than all the kubelet's other polling together. Like containerd's
// syncer, berthd measures every 10 s in the background, from 1 s after it serves (keepImageFsFigure),
// so a call finds a figure under 12 s old and is served from it. Without one that fresh (a walk that
// runs long), a figure under 20 s old is served while a new one is measured; an older one, or none,
// is waited for. After a pull, an import or a removal the next call waits for a new figure.
import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { FilesystemUsage } from '../../api/gen/runtime/v1/FilesystemUsage';
import type { ImageFsInfoRequest__Output } from '../../api/gen/runtime/v1/ImageFsInfoRequest';
import type { ImageFsInfoResponse } from '../../api/gen/runtime/v1/ImageFsInfoResponse';
import { isNotFound, messageOf } from '../../errdefs/errors';
import type { Info, Usage } from '../../snapshots/types';
import type { StatsCollector } from '../stats/collector';
import { pruneStats, statsCollector } from './container_stats';
import type { CriService, RuntimeDeps } from './service';

/** Snapshots measured between two turns of the event loop. */
const YIELD_EVERY = 32;
/** How often berthd measures in the background (containerd's syncer: every 10 s). */
const REFRESH_MS = 10_000;
/**
 * The first background measurement waits this long after serving begins: the calls that come
 * first after a (re)start (a kubelet relisting every pod) are not held up behind a walk of every
 * layer. A call that comes before it measures, as one without a figure always does.
 */
const FIRST_AFTER_MS = 1_000;
/** A figure this fresh is served without measuring again: the background's period and a walk's time. */
const FRESH_MS = 12_000;
/** A figure this fresh is served while a new one is measured; past it, callers wait for the new one. */
const STALE_MS = 20_000;

interface FsFigure {
  /** When the figure was taken (its oldest part), ms since the epoch. */
  at: number;
  usedBytes: number;
  inodesUsed: number;
}

interface FigureState {
  last?: { figure: FsFigure; measuredAt: number };
  /** The measurement under way, if any; a removal forgets it, so nobody waits for a figure from before. */
  running?: Promise<FsFigure>;
  /** Bumped by forgetImageFsUsage: a measurement begun before keeps its figure to itself. */
  generation: number;
}

const states = new WeakMap<RuntimeDeps, FigureState>();

function stateOf(rt: RuntimeDeps): FigureState {
  let state = states.get(rt);
  if (state === undefined) {
    state = { generation: 0 };
    states.set(rt, state);
  }
  return state;
}
/** A committed snapshot (name and creation, so one made again is measured again) -> its usage; only those the last walk saw are kept. */
const committedUsage = new WeakMap<RuntimeDeps, Map<string, Usage>>();

/** Drops the cached figure, so the next ImageFsInfo measures again (after pull, import, remove). */
export function forgetImageFsUsage(rt: RuntimeDeps): void {
  const state = stateOf(rt);
  state.generation += 1;
  state.last = undefined;
  state.running = undefined;
}

/** A snapshot's usage and when it was measured (ms); undefined when it is gone. */
async function snapshotUsage(
  rt: RuntimeDeps,
  stats: StatsCollector,
  committed: { known: Map<string, Usage>; seen: Map<string, Usage> },
  snapshot: Pick<Info, 'name' | 'kind' | 'created'>,
): Promise<{ usage: Usage; at?: number } | undefined> {
  const { name, kind } = snapshot;
  if (kind === 'active') {
    const layer = await stats.activeSnapshotUsage(name);
    if (layer === undefined) return undefined;
    return { usage: { size: Number(layer.usedBytes), inodes: Number(layer.inodesUsed) }, at: Number(layer.timestamp / 1_000_000n) };
  }
  const id = `${name}@${snapshot.created.getTime()}`;
  const known = kind === 'committed' ? committed.known.get(id) : undefined;
  try {
    const usage = known ?? (await rt.snapshotter.usage(name));
    if (kind === 'committed') committed.seen.set(id, usage);
    return { usage };
  } catch (err) {
    if (isNotFound(err)) return undefined; // removed since the walk
    throw err;
  }
}

// Async as a whole, so a failure anywhere (opening /proc/self/mountinfo with no fd left, say) is
// the measurement's rejection, never a throw out of the timer that started it.
async function measure(svc: CriService): Promise<FsFigure> {
  const rt = svc.rt;
  // With every measurement (the background one every REFRESH_MS): state of what was removed goes
  // even when no client lists stats.
  pruneStats(svc);
  const stats = statsCollector(svc);
  let at = Date.now();
  let usedBytes = 0;
  let inodesUsed = 0;
  const snapshots: Info[] = [];
  await rt.snapshotter.walk((info) => {
    snapshots.push(info);
  });
  const committed = { known: committedUsage.get(rt) ?? new Map<string, Usage>(), seen: new Map<string, Usage>() };
  for (const [i, snapshot] of snapshots.entries()) {
    // Known figures resolve at once, so without this the walk of a full node's hundreds of
    // snapshots would hold the event loop (and every call waiting on it) from start to end.
    if (i > 0 && i % YIELD_EVERY === 0) await nextTurn();
    const found = await snapshotUsage(rt, stats, committed, snapshot);
    if (found === undefined) continue;
    usedBytes += found.usage.size;
    inodesUsed += found.usage.inodes;
    if (found.at !== undefined) at = Math.min(at, found.at);
  }
  committedUsage.set(rt, committed.seen);
  for await (const blob of rt.content.walk()) {
    usedBytes += blob.size;
    inodesUsed += 1;
  }
  return { at, usedBytes, inodesUsed };
}

/** Starts a measurement unless one is under way; resolves with its figure. */
function measureAgain(svc: CriService, state: FigureState): Promise<FsFigure> {
  if (state.running) return state.running;
  const generation = state.generation;
  const running = measure(svc).then((figure) => {
    if (state.generation === generation) state.last = { figure, measuredAt: Date.now() };
    return figure;
  });
  state.running = running;
  const done = () => {
    if (state.running === running) state.running = undefined;
  };
  running.then(done, done);
  return running;
}

function figureFor(svc: CriService): Promise<FsFigure> {
  const state = stateOf(svc.rt);
  const age = state.last === undefined ? Infinity : Date.now() - state.last.measuredAt;
  if (age < FRESH_MS) return Promise.resolve(state.last!.figure);
  if (age < STALE_MS) {
    // A failed background measurement leaves the last figure to be served until it is too old.
    measureAgain(svc, state).catch((err: unknown) => svc.logger.warn('measuring the image filesystem failed', { error: messageOf(err) }));
    return Promise.resolve(state.last!.figure);
  }
  return measureAgain(svc, state);
}

/**
 * Measures after `firstAfterMs` and then every `everyMs` in the background, as containerd's snapshot
 * syncer does, so the kubelet's calls find a figure; returns what stops it. A failed measurement is
 * logged and the next one tried on time.
 */
export function keepImageFsFigure(svc: CriService, { everyMs = REFRESH_MS, firstAfterMs = FIRST_AFTER_MS } = {}): () => void {
  const state = stateOf(svc.rt);
  const tick = () => {
    measureAgain(svc, state).catch((err: unknown) => svc.logger.warn('measuring the image filesystem failed', { error: messageOf(err) }));
  };
  let every: NodeJS.Timeout | undefined;
  const first = setTimeout(() => {
    tick();
    every = setInterval(tick, everyMs);
    every.unref();
  }, firstAfterMs);
  first.unref();
  return () => {
    clearTimeout(first);
    clearInterval(every);
  };
}

/** The answer for each figure, made once and frozen: the encoder keeps its bytes (grpc_definition.ts). */
const answers = new WeakMap<FsFigure, Readonly<ImageFsInfoResponse>>();

function answerFor(svc: CriService, figure: FsFigure): Readonly<ImageFsInfoResponse> {
  let answer = answers.get(figure);
  if (answer === undefined) {
    const usage = (): FilesystemUsage =>
      Object.freeze({
        timestamp: String(BigInt(figure.at) * 1_000_000n),
        fs_id: Object.freeze({ mountpoint: join(svc.config.root, 'overlayfs') }),
        used_bytes: Object.freeze({ value: String(figure.usedBytes) }),
        inodes_used: Object.freeze({ value: String(figure.inodesUsed) }),
      });
    // containerd 1.6 reports its one snapshotter mount for both: container layers live there too.
    const made: ImageFsInfoResponse = { image_filesystems: [usage()], container_filesystems: [usage()] };
    Object.freeze(made.image_filesystems);
    Object.freeze(made.container_filesystems);
    answer = Object.freeze(made);
    answers.set(figure, answer);
  }
  return answer;
}

export async function imageFsInfo(svc: CriService, _req: ImageFsInfoRequest__Output): Promise<ImageFsInfoResponse> {
  return answerFor(svc, await figureFor(svc));
}

// Garbage collection of image snapshots: when an image goes, the committed snapshots of its layer
// chain go too, unless another image shares them or a container snapshot sits on top of them.
// A pull or import marks the chains it is about to reuse or commit as protected (taking the gate
// shared only for that moment) until its image is recorded, so the GC (exclusive) never takes a
// chain whose image is about to exist, and never waits for a download to finish. CreateContainer
// holds the gate shared between resolving an image and preparing on its chain.
import type { ContentStore } from '../content/types';
import { isFailedPrecondition, isNotFound, messageOf } from '../errdefs/errors';
import type { UnpackFn } from '../images/import';
import type { ImageService } from '../images/service';
import { silentLogger, type Logger } from '../log/logger';
import { chainIDs } from '../rootfs';
import type { Snapshotter } from '../snapshots/types';
import { unpackImage } from './image_unpack';

/** Many holders at once, or one exclusive holder; a waiting exclusive holder goes before new shared ones. */
export class SharedExclusiveLock {
  private shared = 0;
  private exclusive = false;
  private waitingExclusive = 0;
  private readonly wakeups: Array<() => void> = [];

  async acquireShared(): Promise<() => void> {
    while (this.exclusive || this.waitingExclusive > 0) await this.sleep();
    this.shared++;
    return this.once(() => {
      this.shared--;
      this.wakeAll();
    });
  }

  async acquireExclusive(): Promise<() => void> {
    this.waitingExclusive++;
    try {
      while (this.exclusive || this.shared > 0) await this.sleep();
    } finally {
      this.waitingExclusive--;
    }
    this.exclusive = true;
    return this.once(() => {
      this.exclusive = false;
      this.wakeAll();
    });
  }

  private sleep(): Promise<void> {
    return new Promise((resolve) => this.wakeups.push(resolve));
  }

  private wakeAll(): void {
    for (const wake of this.wakeups.splice(0)) wake();
  }

  private once(fn: () => void): () => void {
    let done = false;
    return () => {
      if (done) return;
      done = true;
      fn();
    };
  }
}

/** The GC lock plus the chains unpacks in flight have protected (with a count per chain). */
export class SnapshotGcGate extends SharedExclusiveLock {
  private readonly building = new Map<string, number>();

  /** Protects `chains` from GC until the returned release; waits only for a GC in progress. */
  async protect(chains: readonly string[]): Promise<() => void> {
    const release = await this.acquireShared();
    for (const chain of chains) this.building.set(chain, (this.building.get(chain) ?? 0) + 1);
    release();
    let done = false;
    return () => {
      if (done) return;
      done = true;
      for (const chain of chains) {
        const left = (this.building.get(chain) ?? 1) - 1;
        if (left > 0) this.building.set(chain, left);
        else this.building.delete(chain);
      }
    };
  }

  /** Chains some unpack protected (read by the GC while it holds the gate exclusive). */
  protectedChains(): Iterable<string> {
    return this.building.keys();
  }
}

const gates = new WeakMap<Snapshotter, SnapshotGcGate>();

/** The gate between unpacks, container snapshot prepares and snapshot GC on one snapshotter. */
export function snapshotGcGate(sn: Snapshotter): SnapshotGcGate {
  let gate = gates.get(sn);
  if (!gate) gates.set(sn, (gate = new SnapshotGcGate()));
  return gate;
}

/** Chain IDs of every layer of every recorded image; undefined when an image cannot be resolved. */
async function chainsInUse(images: ImageService, logger: Logger): Promise<Set<string> | undefined> {
  const keep = new Set<string>();
  const ids = new Set(images.store.list().map((r) => r.configDigest));
  for (const id of ids) {
    try {
      for (const chainID of chainIDs((await images.resolve(id)).config.diffIds)) keep.add(chainID);
    } catch (err) {
      // Without its layer list we cannot tell which snapshots it needs: keep them all this time.
      logger.warn('snapshot GC skipped: an image cannot be resolved', { image: id, error: messageOf(err) });
      return undefined;
    }
  }
  return keep;
}

/**
 * Removes committed snapshots that no recorded image names in its layer chain, top-down, each only
 * once nothing has it as parent (an active container snapshot keeps its whole chain). Returns the
 * names removed.
 */
export async function collectImageSnapshots(
  sn: Snapshotter,
  images: ImageService,
  logger: Logger = silentLogger,
): Promise<string[]> {
  const gate = snapshotGcGate(sn);
  const release = await gate.acquireExclusive();
  try {
    // Copied before the image list is read: an unpack that records its image and unprotects its
    // chains while chainsInUse awaits is then covered by the copy, whatever the list saw.
    const protectedNow = [...gate.protectedChains()];
    const keep = await chainsInUse(images, logger);
    if (keep === undefined) return [];
    for (const chain of protectedNow) keep.add(chain);
    const parentOf = new Map<string, string | undefined>();
    const children = new Map<string, number>();
    await sn.walk((info) => {
      if (info.kind === 'committed') parentOf.set(info.name, info.parent);
      if (info.parent !== undefined) children.set(info.parent, (children.get(info.parent) ?? 0) + 1);
    });
    const unused = (name: string) => parentOf.has(name) && !keep.has(name);
    const ready = [...parentOf.keys()].filter((name) => unused(name) && (children.get(name) ?? 0) === 0);
    const removed: string[] = [];
    for (let name = ready.pop(); name !== undefined; name = ready.pop()) {
      try {
        await sn.remove(name);
      } catch (err) {
        // A child appeared (a container prepared meanwhile) or it is already gone: leave it.
        if (!isFailedPrecondition(err) && !isNotFound(err)) throw err;
        continue;
      }
      removed.push(name);
      const parent = parentOf.get(name);
      if (parent === undefined) continue;
      const left = (children.get(parent) ?? 1) - 1;
      children.set(parent, left);
      if (left === 0 && unused(parent)) ready.push(parent);
    }
    if (removed.length > 0) logger.info('removed unused image snapshots', { snapshots: removed });
    return removed;
  } finally {
    release();
  }
}

/** Per snapshotter: a background collection running, and whether another was asked for meanwhile. */
const soon = new WeakMap<Snapshotter, { again: boolean }>();

/**
 * Collects unused image snapshots in the background: after a pull or import that failed, whose
 * layers already committed are named by no image (a gzip bomb's 3 GiB layer under a broken one would
 * otherwise stay until some RemoveImage). The failing call does not wait for it; calls while one
 * runs make one more run after it.
 */
export function collectImageSnapshotsSoon(sn: Snapshotter, images: ImageService, logger: Logger): void {
  const running = soon.get(sn);
  if (running) {
    running.again = true;
    return;
  }
  const state = { again: false };
  soon.set(sn, state);
  const run = (): void => {
    state.again = false;
    collectImageSnapshots(sn, images, logger)
      .catch((err: unknown) => logger.warn('background snapshot GC failed', { error: messageOf(err) }))
      .finally(() => {
        if (state.again) run();
        else soon.delete(sn);
      });
  };
  run();
}

/**
 * After a container or pod snapshot was removed: when no record names its image any more (the image
 * was removed while the container still used it, as containerd allows), the image's layers were
 * kept only for that container, and are collected now, as containerd's GC collects them once the
 * container's snapshot is gone.
 */
export function collectImageSnapshotsIfOrphaned(sn: Snapshotter, images: ImageService, imageId: string, logger: Logger): void {
  if (imageId === '' || images.store.listByConfig(imageId).length > 0) return;
  collectImageSnapshotsSoon(sn, images, logger.with({ component: 'snapshot-gc' }));
}

/**
 * An unpack callback for a pull or an import that protects each image's chains from GC before
 * unpacking it and keeps them protected until `release(recorded)`, which the caller runs once the
 * image is recorded (true) or the operation failed (false). The download itself holds nothing a GC
 * would wait for. After a failure in which an unpack ran, the layers it committed are collected in
 * the background (collectImageSnapshotsSoon); a failure before any unpack costs no GC.
 */
export function gatedUnpack(
  sn: Snapshotter,
  content: ContentStore,
  images: ImageService,
  logger: Logger = silentLogger,
): { unpack: UnpackFn; release: (recorded: boolean) => void } {
  const releases: Array<() => void> = [];
  let released = false;
  let unpacked = false;
  return {
    unpack: async (image) => {
      const unprotect = await snapshotGcGate(sn).protect(chainIDs(image.config.diffIds));
      releases.push(unprotect);
      unpacked = true;
      try {
        await unpackImage(sn, content, image, logger);
      } finally {
        if (released) unprotect(); // the operation ended meanwhile: nothing will record this image
      }
    },
    release: (recorded) => {
      released = true;
      for (const unprotect of releases.splice(0)) unprotect();
      if (!recorded && unpacked) collectImageSnapshotsSoon(sn, images, logger.with({ component: 'snapshot-gc' }));
    },
  };
}

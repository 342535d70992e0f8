// Garbage collection of image snapshots: when an image goes, the committed snapshots of its layer
// chain go too, unless another image shares them or a container snapshot sits on top of them.
// Unpacks hold the gate shared from the moment they start committing chain snapshots until their
// image is recorded, so the GC (exclusive) never takes a chain whose image is about to exist.
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

const gates = new WeakMap<Snapshotter, SharedExclusiveLock>();

/** The gate between unpacks and snapshot GC on one snapshotter. */
export function snapshotGcGate(sn: Snapshotter): SharedExclusiveLock {
  let gate = gates.get(sn);
  if (!gate) gates.set(sn, (gate = new SharedExclusiveLock()));
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
  const release = await snapshotGcGate(sn).acquireExclusive();
  try {
    const keep = await chainsInUse(images, logger);
    if (keep === undefined) return [];
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

/**
 * An unpack callback for a pull or an import that takes the GC gate (shared) before its first
 * unpack and keeps it until `release()`, which the caller runs once the image is recorded (or the
 * operation failed).
 */
export function gatedUnpack(
  sn: Snapshotter,
  content: ContentStore,
  logger?: Logger,
): { unpack: UnpackFn; release: () => void } {
  let held: Promise<() => void> | undefined;
  return {
    unpack: async (image) => {
      held ??= snapshotGcGate(sn).acquireShared();
      await held;
      await unpackImage(sn, content, image, logger);
    },
    release: () => {
      void held?.then((release) => release());
    },
  };
}

// applyLayers: unpacks an image's layers into committed snapshots named by chain ID (containerd
// pkg/rootfs/apply.go), skipping what is already there. With a snapshotter that can rebase
// (overlay), the missing layers extract concurrently, each into its own empty snapshot, and are
// committed in chain order on top of each other; otherwise one by one on the mounted parent.
import { shown } from '../archive';
import { isUnpackKey } from './extract';
import { isAlreadyExists, aborted, invalidArgument, isNotFound } from '../errdefs/errors';
import { silentLogger, type Logger } from '../log/logger';
import { canRebase, type DiffRebaser, type Snapshotter } from '../snapshots/types';
import { chainIDs } from './chain';
import { adoptParentAttributes, applyInto, extractKey, NeedsParent } from './extract';
import { KeyedMutex, Semaphore } from './locks';
import type { Layer } from './types';

export interface ApplyLayersOptions {
  /** How many layers extract at once when the snapshotter can rebase (default 3). */
  concurrency?: number;
  /** Extract one layer at a time on its mounted parent, as containerd does. */
  sequential?: boolean;
  logger?: Logger;
}

// One lock table per snapshotter: the chain IDs of two snapshotters never collide.
const locksBySnapshotter = new WeakMap<Snapshotter, KeyedMutex>();

/**
 * Makes sure a committed snapshot exists for every layer's chain ID and returns the top one.
 * On failure nothing partial is left: extract snapshots are removed; layers already committed
 * below the failing one stay (they are complete and named by content).
 */
export async function applyLayers(sn: Snapshotter, layers: readonly Layer[], opts: ApplyLayersOptions = {}): Promise<string> {
  if (layers.length === 0) throw invalidArgument('applyLayers: an image needs at least one layer');
  const chain = chainIDs(layers.map((l) => l.diffID));
  const top = chain[chain.length - 1] as string;
  if ((await firstMissing(sn, chain)) === chain.length) return top;

  let locks = locksBySnapshotter.get(sn);
  if (!locks) locksBySnapshotter.set(sn, (locks = new KeyedMutex()));
  const releases: Array<() => void> = [];
  try {
    // Ascending chain order: every caller locks a shared prefix in the same order, so no deadlock.
    for (const id of chain) releases.push(await locks.acquire(id));
    const start = await firstMissing(sn, chain); // whoever held the locks may have done the work
    if (start === chain.length) return top;
    const logger = (opts.logger ?? silentLogger).with({ chainID: top });
    const unpacker = new Unpacker(sn, layers, chain, logger);
    if (!opts.sequential && canRebase(sn)) await unpacker.concurrently(sn, start, opts.concurrency ?? 3);
    else await unpacker.sequentially(start);
  } finally {
    for (const release of releases.reverse()) release();
  }
  return top;
}

/**
 * Removes extract and adopt snapshots an interrupted unpack left (call at start, before any
 * unpack runs: it cannot tell a crashed unpack from a running one).
 */
export async function removeStaleExtracts(sn: Snapshotter, logger: Logger = silentLogger): Promise<string[]> {
  const stale: string[] = [];
  await sn.walk((info) => {
    if (info.kind !== 'committed' && isUnpackKey(info.name)) stale.push(info.name);
  });
  for (const key of stale) {
    logger.info('removing snapshot of an interrupted unpack', { key });
    await sn.remove(key);
  }
  return stale;
}

/** Index of the first layer whose chain ID is not committed (layers.length when all are). */
async function firstMissing(sn: Snapshotter, chain: readonly string[]): Promise<number> {
  for (let i = chain.length - 1; i >= 0; i--) {
    try {
      if ((await sn.stat(chain[i] as string)).kind === 'committed') return i + 1;
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }
  return 0;
}

class Unpacker {
  constructor(
    private readonly sn: Snapshotter,
    private readonly layers: readonly Layer[],
    private readonly chain: readonly string[],
    private readonly logger: Logger,
  ) {}

  private parentOf(i: number): string {
    return i === 0 ? '' : (this.chain[i - 1] as string);
  }

  async sequentially(start: number): Promise<void> {
    for (let i = start; i < this.layers.length; i++) await this.onParent(i);
  }

  /** Prepare on the parent, apply through the mounted merge, commit (containerd's applyLayers). */
  private async onParent(i: number): Promise<void> {
    const chainID = this.chain[i] as string;
    const key = extractKey(chainID);
    await this.sn.prepare(key, this.parentOf(i));
    try {
      await applyInto(this.sn, key, this.layers[i] as Layer, 'remove');
      await this.commit(key, chainID, () => this.sn.commit(chainID, key));
    } catch (err) {
      await this.removeAll([key]);
      throw err;
    }
  }

  async concurrently(sn: Snapshotter & DiffRebaser, start: number, concurrency: number): Promise<void> {
    const slots = new Semaphore(Math.max(1, concurrency));
    const pending = new Set<string>(); // extract snapshots not yet committed
    let failed = false;
    const extractions = this.layers.slice(start).map((layer, j) =>
      slots.run(async () => {
        if (failed) throw aborted('unpack aborted: an earlier layer failed');
        const key = extractKey(this.chain[start + j] as string);
        await sn.prepare(key, '');
        pending.add(key);
        const result = await applyInto(sn, key, layer, 'overlay');
        return { key, impliedDirs: result.impliedDirs, linksOutside: result.linksOutside };
      }),
    );
    for (const e of extractions) e.catch(() => (failed = true));
    try {
      for (let i = start; i < this.layers.length; i++) {
        const { key, impliedDirs, linksOutside } = await (extractions[i - start] as (typeof extractions)[number]);
        const chainID = this.chain[i] as string;
        const parent = this.parentOf(i);
        try {
          if (linksOutside.length > 0) throw new NeedsParent(`hard link "${shown(linksOutside[0] as string)}" has its target outside the layer`);
          await adoptParentAttributes(sn, key, parent, impliedDirs);
        } catch (err) {
          if (!(err instanceof NeedsParent)) throw err;
          this.logger.info('layer needs its parents to extract; extracting it on them', { layer: chainID, reason: err.message });
          pending.delete(key);
          await this.removeAll([key]);
          await this.onParent(i);
          continue;
        }
        await this.commit(key, chainID, () => sn.commitOnto(chainID, key, parent));
        pending.delete(key);
      }
    } catch (err) {
      failed = true;
      await Promise.allSettled(extractions);
      await this.removeAll(pending);
      throw err;
    }
  }

  // Another process may have committed the same chain ID meanwhile: same content, keep theirs.
  private async commit(key: string, chainID: string, commit: () => Promise<void>): Promise<void> {
    try {
      await commit();
    } catch (err) {
      if (!isAlreadyExists(err)) throw err;
      await this.removeAll([key]);
    }
  }

  /**
   * Removes extract snapshots. On a full disk a removal can fail until the others' files are gone
   * (SQLite needs room to log the delete, and emptying one small snapshot may not make it), so
   * what failed is tried again for as long as a round removes something.
   */
  private async removeAll(keys: Iterable<string>): Promise<void> {
    let left = [...keys];
    for (;;) {
      const failures: Array<{ key: string; err: unknown }> = [];
      for (const key of left) {
        const err = await this.tryRemove(key);
        if (err !== undefined) failures.push({ key, err });
      }
      if (failures.length === 0) return;
      if (failures.length === left.length) {
        for (const { key, err } of failures) this.logger.warn('cannot remove extract snapshot', { key, error: err });
        return;
      }
      left = failures.map((f) => f.key);
    }
  }

  /** Removes `key` (gone already is fine); the error when it could not. */
  private async tryRemove(key: string): Promise<unknown> {
    try {
      await this.sn.remove(key);
      return undefined;
    } catch (err) {
      return isNotFound(err) ? undefined : err;
    }
  }
}

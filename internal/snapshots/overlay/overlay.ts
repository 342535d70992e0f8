// The overlay snapshotter: each snapshot is <root>/snapshots/<id>/{fs,work}, its record a row of
// the snapshots table. Creation happens in a temp dir renamed into place inside the row's
// transaction, so a crash leaves either both or an orphan dir that cleanup() sweeps.
import { chownSync, existsSync, mkdirSync, readdirSync, renameSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { alreadyExists, failedPrecondition, invalidArgument, kindOf, messageOf, notFound } from '../../errdefs/errors';
import type { Logger } from '../../log/logger';
import { silentLogger } from '../../log/logger';
import { errnoCode, markTopDir } from '../../sys/fs';
import { Trash } from '../../trash/trash';
import type { MetadataDB } from '../../metadata/db';
import { cleanupLegacyTempMounts, cleanupTempMounts } from '../../mount';
import type { Mount } from '../../mount/types';
import { parseFilters } from '../filters';
import type { DiffRebaser, Info, Kind, SnapshotOptions, Snapshotter, Usage } from '../types';
import { mountsFor, overlayIndexOn, type SnapshotPaths } from './mounts';
import { brokenKey, planMissingLayers } from './missing_layers';
import { infoOf, SnapshotStore, type SnapshotRow } from './store';
import { diskUsage } from './usage';
import { removeTree, removeTreeSync } from '../../fs/remove_tree';

export interface OverlayOptions {
  /** State root; snapshots live in <root>/snapshots. */
  root: string;
  db: MetadataDB;
  logger?: Logger;
}

const TEMP_PREFIX = 'new-';

/**
 * Snapshots are unrelated trees, so ext4 may spread them over its block groups (chattr +T on their
 * directory) instead of packing each beside the last. A new snapshot then seldom lands among the
 * inodes of one just removed, which ext4 without a journal will not reuse for a minute and scans
 * past at every allocation: a 4,000-file layer took 1.2-1.4 s to unpack right after another was
 * removed, 0.2-0.4 s with the flag (2026-12-04). Only a hint: a failure is logged, not fatal.
 */
function spreadSnapshots(dir: string, logger: Logger): void {
  try {
    markTopDir(dir);
  } catch (err) {
    logger.warn('cannot mark the snapshots directory as a top directory (chattr +T)', { dir, error: err });
  }
}

export class OverlaySnapshotter implements Snapshotter, DiffRebaser {
  private readonly store: SnapshotStore;
  private readonly dir: string;
  private readonly logger: Logger;
  private readonly trash: Trash;
  private readonly indexOff = overlayIndexOn();
  private readonly paths: SnapshotPaths;
  readonly tempMountDir: string;
  private readonly root: string;

  constructor(opts: OverlayOptions) {
    // Overlay options are split on ',' and lowerdir on ':': such a root could not be mounted.
    if (/[,:]/.test(opts.root)) throw invalidArgument(`overlay snapshotter root ${opts.root} must not contain ',' or ':'`);
    this.root = opts.root;
    this.dir = join(opts.root, 'snapshots');
    this.trash = new Trash(join(opts.root, 'trash'), opts.logger ?? silentLogger);
    this.tempMountDir = join(opts.root, 'tmpmounts');
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    mkdirSync(this.tempMountDir, { recursive: true, mode: 0o700 });
    this.store = new SnapshotStore(opts.db);
    this.logger = opts.logger ?? silentLogger;
    spreadSnapshots(this.dir, this.logger);
    this.paths = { upper: (id) => join(this.dir, String(id), 'fs'), work: (id) => join(this.dir, String(id), 'work') };
  }

  /** Opens the snapshotter and sweeps what a crash left behind (the way berthd starts it). */
  static async open(opts: OverlayOptions): Promise<OverlaySnapshotter> {
    const sn = new OverlaySnapshotter(opts);
    await sn.cleanup();
    return sn;
  }

  async stat(key: string): Promise<Info> {
    return infoOf(this.store.mustGet(key));
  }

  async update(info: Pick<Info, 'name' | 'labels'>, ...fieldpaths: string[]): Promise<Info> {
    return this.store.db.tx(() => {
      const row = this.store.mustGet(info.name);
      let labels = JSON.parse(row.labels) as Record<string, string>;
      if (fieldpaths.length === 0) labels = { ...info.labels };
      for (const path of fieldpaths) {
        if (path === 'labels') {
          labels = { ...info.labels };
        } else if (path.startsWith('labels.')) {
          const key = path.slice('labels.'.length);
          if (Object.hasOwn(info.labels, key)) labels[key] = info.labels[key] as string;
          else delete labels[key];
        } else {
          throw invalidArgument(`update snapshot ${JSON.stringify(info.name)}: cannot update field "${path}"`);
        }
      }
      this.store.setLabels(row.key, JSON.stringify(labels), Date.now());
      return infoOf(this.store.mustGet(row.key));
    });
  }

  async usage(key: string): Promise<Usage> {
    const dir = this.paths.upper(this.store.mustGet(key).id);
    try {
      return await diskUsage(dir);
    } catch (err) {
      // A snapshot whose dir is gone takes no space; ImageFsInfo, which measures every snapshot,
      // must not fail for one (a layer lost under a container, kept by dropLayersWithoutDirs).
      if (errnoCode(err) === 'ENOENT' && !existsSync(dir)) return { size: 0, inodes: 0 };
      throw err;
    }
  }

  async mounts(key: string): Promise<Mount[]> {
    const row = this.store.mustGet(key);
    if (row.kind === 'committed') throw failedPrecondition(`snapshot ${JSON.stringify(key)} is committed: only active and view snapshots have mounts`);
    return mountsFor(row.kind, row.id, this.store.parentIds(row.parent), this.paths, this.indexOff);
  }

  async prepare(key: string, parent: string, opts: SnapshotOptions = {}): Promise<Mount[]> {
    return this.create('active', key, parent, opts);
  }

  async view(key: string, parent: string, opts: SnapshotOptions = {}): Promise<Mount[]> {
    return this.create('view', key, parent, opts);
  }

  async commit(name: string, key: string, opts: SnapshotOptions = {}): Promise<void> {
    this.store.db.tx(() => {
      const row = this.activeRow(name, key);
      this.store.commit(key, name, row.parent, opts.labels ? JSON.stringify(opts.labels) : row.labels, Date.now());
    });
  }

  async commitOnto(name: string, key: string, parent: string, opts: SnapshotOptions = {}): Promise<void> {
    this.store.db.tx(() => {
      const row = this.activeRow(name, key);
      if (row.parent !== null) {
        throw failedPrecondition(`commit ${JSON.stringify(key)} onto ${JSON.stringify(parent)}: it already has parent ${JSON.stringify(row.parent)}`);
      }
      if (parent !== '') this.committedParent(parent);
      this.store.commit(key, name, parent === '' ? null : parent, opts.labels ? JSON.stringify(opts.labels) : row.labels, Date.now());
    });
  }

  async remove(key: string): Promise<void> {
    const deleteRow = () =>
      this.store.db.tx(() => {
        const found = this.store.mustGet(key);
        if (this.store.hasChildren(key)) throw failedPrecondition(`cannot remove snapshot ${JSON.stringify(key)}: other snapshots have it as parent`);
        this.store.delete(key);
        return found;
      });
    let row: SnapshotRow;
    try {
      row = deleteRow();
    } catch (err) {
      // The disk is so full that SQLite cannot log the delete — typically because this very
      // snapshot's unpack or container filled it. An active or view snapshot is being thrown away:
      // its files go first to make the room, then the row. (A crash in between leaves an empty
      // snapshot, which its owner was removing anyway; a committed layer is never emptied first.)
      const found = this.store.get(key);
      if (kindOf(err) !== 'ResourceExhausted' || !found || found.kind === 'committed') throw err;
      this.logger.warn('disk full: emptying snapshot before removing its record', { key });
      await Promise.all([this.paths.upper(found.id), this.paths.work(found.id)].map(emptyDir));
      row = deleteRow();
    }
    // The row's deletion is on disk before its files go: a power loss must not leave a row whose
    // dir is gone. If it cannot be flushed, the dir stays, an orphan the next start removes (cleanup).
    await this.store.db.durable();
    this.removeDir(row.id);
  }

  async walk(fn: (info: Info) => void | Promise<void>, ...filters: string[]): Promise<void> {
    const matches = parseFilters(filters);
    for (const row of this.store.all()) {
      const info = infoOf(row);
      if (matches(info)) await fn(info);
    }
  }

  async cleanup(): Promise<void> {
    // Before the orphan sweep: a snapshot still mounted where a killed unpack applied a layer.
    const failed = (dir: string, err: unknown) => this.logger.warn('cannot remove a leftover temporary mount', { dir, error: messageOf(err) });
    for (const dir of cleanupTempMounts(this.tempMountDir, failed)) this.logger.info('removed a leftover temporary mount', { dir });
    for (const dir of cleanupLegacyTempMounts(this.root, failed)) this.logger.warn('removed a temporary mount an older berth left', { dir });
    this.trash.empty();
    // Before the orphan sweep, which then removes what is left of the dirs of the rows dropped here.
    await this.dropLayersWithoutDirs();
    // Only <id> directories with a row belong here: creation temp dirs, orphans and anything
    // else a crash or an older berth left are removed, through the trash (an interrupted unpack of
    // a layer of a million files must not hold up the start).
    for (const name of readdirSync(this.dir)) {
      if (/^\d+$/.test(name) && this.store.hasId(Number(name))) continue;
      this.logger.info('removing orphan snapshot directory', { dir: join(this.dir, name) });
      this.trash.discard(join(this.dir, name));
    }
  }

  /**
   * Committed snapshots whose fs dir is gone, and every committed one above them, leave their chain
   * IDs (missing_layers.ts), so the next unpack of their image (an import, a pull, or the pod or
   * container start that unpacks its image) makes them again instead of skipping them. Checked
   * once here rather than at each unpack: CreateContainer unpacks, and must not stat every layer.
   */
  private async dropLayersWithoutDirs(): Promise<void> {
    const plan = planMissingLayers(this.store.all(), (row) => existsSync(this.paths.upper(row.id)));
    if (plan.missing.length === 0) return;
    for (const row of plan.missing) {
      this.logger.error('committed snapshot directory is missing; its layer and those above it will be unpacked again', {
        key: row.key,
        dir: this.paths.upper(row.id),
      });
    }
    const renamed = plan.rename.map((row) => ({ from: row.key, to: brokenKey(row) })).filter((r) => r.from !== r.to);
    try {
      this.store.db.tx(() => {
        const now = Date.now();
        for (const { from, to } of renamed) this.store.rename(from, to, now);
        for (const row of plan.remove) this.store.delete(row.key);
      });
    } catch (err) {
      // Not a reason for berthd not to serve: the rows stay as they were (failing at mount).
      this.logger.error('cannot drop layer snapshots on a missing directory', { error: messageOf(err) });
      return;
    }
    // On disk before the orphan sweep moves the removed rows' dirs away, as remove() does. Should
    // the flush fail, a power loss brings back rows whose dirs are gone: the next start drops them.
    await this.store.db.durable().catch((err: unknown) => this.logger.warn('cannot flush the removal of layer snapshots', { error: messageOf(err) }));
    if (plan.remove.length > 0) this.logger.warn('removed layer snapshots on a missing directory', { keys: plan.remove.map((r) => r.key) });
    if (renamed.length > 0) {
      this.logger.warn('renamed layer snapshots on a missing directory that containers still stand on', { renamed });
    }
  }

  /** Path of a snapshot's own directory tree (for tests and diagnostics). */
  upperDir(key: string): string {
    return this.paths.upper(this.store.mustGet(key).id);
  }

  // The new dirs are made on the thread pool: on a busy disk one mkdir can wait ~10 ms for the
  // journal, and berthd's other calls with it (issue 16). The row and the rename stay one step.
  private async create(kind: Kind, key: string, parent: string, opts: SnapshotOptions): Promise<Mount[]> {
    if (key === '') throw invalidArgument(`${kind === 'view' ? 'view' : 'prepare'}: snapshot key must not be empty`);
    const temp = await mkdtemp(join(this.dir, TEMP_PREFIX));
    let placed: string | undefined;
    try {
      await mkdir(join(temp, 'fs'), 0o755);
      if (kind === 'active') await mkdir(join(temp, 'work'), 0o711);
      return this.store.db.tx(() => {
        if (this.store.get(key)) throw alreadyExists(`snapshot ${JSON.stringify(key)} already exists`);
        const parentRow = parent === '' ? undefined : this.committedParent(parent);
        if (parentRow && kind === 'active') this.copyRootAttributes(this.paths.upper(parentRow.id), join(temp, 'fs'));
        const id = this.nextId();
        const now = Date.now();
        const row: SnapshotRow = { key, id, kind, parent: parentRow ? parentRow.key : null, labels: JSON.stringify(opts.labels ?? {}), created_at: now, updated_at: now };
        this.store.insert(row);
        renameSync(temp, join(this.dir, String(id))); // last: a failure here rolls the row back
        placed = join(this.dir, String(id));
        return mountsFor(kind, id, this.store.parentIds(row.parent), this.paths, this.indexOff);
      });
    } catch (err) {
      // The commit itself can fail after the rename (SQLITE_FULL): the row is gone, so is its dir.
      removeTreeSync(placed ?? temp);
      throw err;
    }
  }

  private activeRow(name: string, key: string): SnapshotRow {
    if (name === '') throw invalidArgument(`commit ${JSON.stringify(key)}: name must not be empty`);
    const row = this.store.mustGet(key);
    if (row.kind !== 'active') throw failedPrecondition(`cannot commit snapshot ${JSON.stringify(key)}: it is ${row.kind}, not active`);
    if (this.store.get(name)) throw alreadyExists(`cannot commit ${JSON.stringify(key)}: snapshot ${JSON.stringify(name)} already exists`);
    return row;
  }

  private committedParent(parent: string): SnapshotRow {
    const row = this.store.get(parent);
    if (!row) throw notFound(`parent snapshot ${JSON.stringify(parent)} not found`);
    if (row.kind !== 'committed') throw invalidArgument(`parent snapshot ${JSON.stringify(parent)} is ${row.kind}, not committed`);
    return row;
  }

  // The upper dir's root becomes the merged root: give it the parent's owner, as containerd's
  // createSnapshot does (the mode stays the 0755 every snapshot root is made with).
  private copyRootAttributes(from: string, to: string): void {
    const st = statSync(from);
    chownSync(to, st.uid, st.gid);
  }

  // Ids grow from the largest in use; one whose directory still exists (a removal not yet
  // finished, or an orphan) is skipped so a rename never lands on leftovers.
  private nextId(): number {
    let id = this.store.maxId() + 1;
    while (existsSync(join(this.dir, String(id)))) id++;
    return id;
  }

  // Moved to the trash at once (the id is free of leftovers), deleted in the background like
  // containerd's GC does: Remove does not wait for a large upper dir to be deleted.
  private removeDir(id: number): void {
    this.trash.discard(join(this.dir, String(id)));
  }

  /** Resolves when background deletions of removed snapshots have finished (tests, shutdown). */
  drain(): Promise<void> {
    return this.trash.drain();
  }
}

/** Removes what is inside `dir`, keeping `dir` itself; missing is fine. */
async function emptyDir(dir: string): Promise<void> {
  const names = await readdir(dir).catch(() => [] as string[]);
  await Promise.all(names.map((n) => removeTree(join(dir, n))));
}

// The snapshotter contract, after containerd's snapshots.Snapshotter: snapshots are named
// directories stacked by parent; Prepare/View hand back Mounts as data, nothing is mounted here.
import type { Mount } from '../mount/types';

/** active: writable, may be committed; committed: read-only, may be a parent; view: read-only, never a parent. */
export type Kind = 'active' | 'committed' | 'view';

export interface Info {
  kind: Kind;
  /** The key of an active or view snapshot, the name of a committed one. */
  name: string;
  /** Name of the committed parent; undefined for a base snapshot. */
  parent?: string;
  labels: Record<string, string>;
  created: Date;
  updated: Date;
}

export interface Usage {
  /** Bytes of disk the snapshot's own directory takes (blocks, hard links counted once). */
  size: number;
  inodes: number;
}

export interface SnapshotOptions {
  labels?: Record<string, string>;
}

export interface Snapshotter {
  /** NotFound when `key` is absent. */
  stat(key: string): Promise<Info>;
  /**
   * Updates the labels of snapshot `info.name`. fieldpaths: none or "labels" replace all labels;
   * "labels.<key>" sets that one label from info.labels (or removes it when absent there).
   */
  update(info: Pick<Info, 'name' | 'labels'>, ...fieldpaths: string[]): Promise<Info>;
  usage(key: string): Promise<Usage>;
  /** The mounts of an active or view snapshot (as Prepare/View returned them). */
  mounts(key: string): Promise<Mount[]>;
  /**
   * A new active snapshot on top of committed `parent` ("" for none). AlreadyExists when `key` is
   * taken, NotFound when the parent is missing, InvalidArgument when it is not committed.
   */
  prepare(key: string, parent: string, opts?: SnapshotOptions): Promise<Mount[]>;
  /** Like prepare, but read-only and never committable. */
  view(key: string, parent: string, opts?: SnapshotOptions): Promise<Mount[]>;
  /** Turns active `key` into committed `name`. FailedPrecondition when `key` is not active. */
  commit(name: string, key: string, opts?: SnapshotOptions): Promise<void>;
  /** FailedPrecondition while other snapshots have it as parent. */
  remove(key: string): Promise<void>;
  /**
   * Calls fn for each snapshot matching any of `filters` (all when none). A filter is a
   * comma-separated AND of `field==v`, `field!=v`, `field~=regex` or `field`, over kind, name,
   * parent and labels.<key> (or labels."<key>").
   */
  walk(fn: (info: Info) => void | Promise<void>, ...filters: string[]): Promise<void>;
  /**
   * Removes directories no snapshot owns (left by a crash mid-create or mid-remove), and takes
   * committed snapshots whose directory is missing off their names so an unpack makes them again.
   */
  cleanup(): Promise<void>;
  /**
   * Where its snapshots are mounted for a moment (a layer applied into one): cleanup() unmounts
   * and removes what a killed process left mounted there (containerd's <root>/tmpmounts).
   */
  readonly tempMountDir?: string;
}

/**
 * Snapshotters whose active snapshot without a parent holds its content as an overlay-style diff
 * (whiteouts as 0/0 devices, opaque xattrs) can take a layer extracted on its own and put it on
 * top of a parent when committing. This lets the layers of an image extract concurrently.
 */
export interface DiffRebaser {
  /**
   * Commits active `key` (prepared with no parent) as `name` whose parent is committed `parent`.
   * FailedPrecondition when `key` is not active or already has a parent.
   */
  commitOnto(name: string, key: string, parent: string, opts?: SnapshotOptions): Promise<void>;
}

export function canRebase(s: Snapshotter): s is Snapshotter & DiffRebaser {
  return typeof (s as Partial<DiffRebaser>).commitOnto === 'function';
}

// The images library as the CRI ImageService handlers (and CreateContainer) call it: look up by
// reference or ID, list, pull, import, remove, GC. Image content is immutable, so what we resolve
// from a target digest (config, layers, size) is cached in memory.
import type { ManagedContentStore } from '../content/types';
import { notFound, invalidArgument } from '../errdefs/errors';
import { silentLogger, type Logger } from '../log/logger';
import type { MetadataDB } from '../metadata/db';
import { groupById, toCriImage, type CriImage } from './cri_view';
import { GenerationCache } from './generation_cache';
import { collectGarbage } from './gc';
import { importArchive, type ImportOptions } from './import';
import { Puller, type PullOptions } from './pull/pull';
import { parseReference, recordName } from './reference';
import { ImageStore, type ImageRecord } from './store';
import { hostPlatform, imageSize, resolveImage, type Platform, type ResolvedImage } from './walk';

export interface ImageServiceOptions {
  db: MetadataDB;
  content: ManagedContentStore;
  logger?: Logger;
  platform?: Platform;
  /** Registry hosts config dir (containerd's config_path). */
  registryConfigPath?: string;
  /** Blobs fetched at once per pull. */
  pullConcurrency?: number;
}

const FULL_ID = /^sha256:[a-f0-9]{64}$/;

export class ImageService {
  readonly store: ImageStore;
  readonly content: ManagedContentStore;
  private readonly platform: Platform;
  private readonly logger: Logger;
  private readonly puller: Puller;
  private readonly resolvedByTarget = new Map<string, Promise<ResolvedImage>>();
  /** CRI views by full image ID until the records change (ContainerStatus asks for one per call). */
  private readonly views: GenerationCache<Promise<CriImage>>;
  /** recordsFor's answers that found an image (every CRI call naming an image asks, some twice). */
  private readonly recordsByRef: GenerationCache<readonly ImageRecord[]>;

  constructor(opts: ImageServiceOptions) {
    this.store = new ImageStore(opts.db);
    this.views = new GenerationCache(() => this.store.generation);
    this.recordsByRef = new GenerationCache(() => this.store.generation);
    this.content = opts.content;
    this.platform = opts.platform ?? hostPlatform();
    this.logger = opts.logger ?? silentLogger;
    this.puller = new Puller({
      content: opts.content,
      images: this.store,
      logger: this.logger,
      configPath: opts.registryConfigPath,
      concurrency: opts.pullConcurrency,
      platform: this.platform,
    });
  }

  /**
   * The image ID for a reference, a full ID ("sha256:<hex>"), or a unique ID prefix, as the CRI
   * resolves ImageSpec.image. NotFound when nothing matches.
   */
  resolveId(refOrId: string): string {
    const records = this.recordsFor(refOrId);
    if (records.length === 0) throw notFound(`image ${JSON.stringify(refOrId)} not found`);
    return records[0].configDigest;
  }

  /** The CRI view of one image; NotFound when absent. */
  get(refOrId: string): Promise<CriImage> {
    return FULL_ID.test(refOrId) ? this.viewById(refOrId) : this.lookup(refOrId);
  }

  /** get() of a full ID, kept until the image records change; the map holds only images that exist. */
  private viewById(id: string): Promise<CriImage> {
    let view = this.views.get(id);
    if (view === undefined) {
      const made = this.lookup(id);
      made.catch(() => this.views.delete(id, made));
      this.views.set(id, made);
      view = made;
    }
    return view;
  }

  private async lookup(refOrId: string): Promise<CriImage> {
    const records = this.recordsFor(refOrId);
    if (records.length === 0) throw notFound(`image ${JSON.stringify(refOrId)} not found`);
    const id = records[0].configDigest;
    const view = await this.viewUnlessRemoved(id, this.store.listByConfig(id));
    if (view === undefined) throw notFound(`image ${JSON.stringify(refOrId)} not found`);
    return view;
  }

  async list(): Promise<CriImage[]> {
    const out: CriImage[] = [];
    for (const [id, records] of groupById(this.store.list())) {
      const view = await this.viewUnlessRemoved(id, records);
      if (view !== undefined) out.push(view);
    }
    return out;
  }

  /**
   * The image's view; undefined when reading its blobs failed because a RemoveImage took its records
   * (and its GC the blobs) meanwhile: containerd answers from memory, and never fails a list for an
   * image removed under it.
   */
  private async viewUnlessRemoved(id: string, records: ImageRecord[]): Promise<CriImage | undefined> {
    try {
      return await this.view(id, records);
    } catch (err) {
      if (this.store.listByConfig(id).length === 0) return undefined;
      throw err;
    }
  }

  /** Config, layers and diff IDs of an image, for building a container. */
  async resolve(refOrId: string): Promise<ResolvedImage> {
    const records = this.recordsFor(refOrId);
    if (records.length === 0) throw notFound(`image ${JSON.stringify(refOrId)} not found`);
    return this.resolveTarget(records[0]);
  }

  pull(reference: string, opts?: PullOptions): Promise<ImageRecord> {
    return this.puller.pull(reference, opts);
  }

  import(archivePath: string, opts: ImportOptions = {}): Promise<ImageRecord[]> {
    return importArchive({ content: this.content, images: this.store, logger: this.logger }, archivePath, {
      platform: this.platform,
      ...opts,
    });
  }

  /**
   * CRI RemoveImage: removes every name of the image `refOrId` resolves to, then the blobs no
   * other image needs. Removing an absent image is not an error (the CRI wants idempotence).
   */
  async remove(refOrId: string): Promise<string[]> {
    const records = this.recordsFor(refOrId);
    if (records.length === 0) {
      // A retry after a removal a kill cut short between its records and its blobs collects them.
      await this.gc();
      return [];
    }
    const names = this.store.listByConfig(records[0].configDigest).map((r) => r.name);
    this.store.deleteAll(names);
    await this.gc();
    return names;
  }

  /** Removes blobs no recorded image references, once the records' removals are on disk. */
  async gc(): Promise<string[]> {
    await this.store.durable();
    this.forgetUnrecordedTargets();
    return collectGarbage(this.content, this.store);
  }

  /**
   * Drops the resolved images (manifest, config, layers) that no record points at any more: kept
   * for good, every digest a node ever pulled stayed in memory after its removal (2-3 KiB each for
   * a small image's, more with a real config's history).
   */
  private forgetUnrecordedTargets(): void {
    const recorded = new Set(this.store.list().map((r) => r.target.digest));
    for (const digest of this.resolvedByTarget.keys()) if (!recorded.has(digest)) this.resolvedByTarget.delete(digest);
  }

  /** How many resolved images it keeps (for tests). */
  get resolvedImages(): number {
    return this.resolvedByTarget.size;
  }

  private recordsFor(refOrId: string): readonly ImageRecord[] {
    let records = this.recordsByRef.get(refOrId);
    if (records === undefined) {
      // Frozen: every later caller gets these same objects.
      records = Object.freeze(this.findRecords(refOrId).map((r) => Object.freeze(r)));
      if (records.length > 0) this.recordsByRef.set(refOrId, records);
    }
    return records;
  }

  private findRecords(refOrId: string): ImageRecord[] {
    if (refOrId === '') throw invalidArgument('image reference is empty');
    const hex = /^(?:sha256:)?([a-f0-9]{1,64})$/.exec(refOrId)?.[1];
    if (hex?.length === 64) return this.store.listByConfig(`sha256:${hex}`); // a full ID: no prefix scan
    if (hex !== undefined && refOrId.startsWith('sha256:')) {
      const ids = this.store.idsWithPrefix(hex);
      if (ids.length > 1) throw invalidArgument(`image ID prefix ${JSON.stringify(refOrId)} is ambiguous`);
      return ids.length === 1 ? this.store.listByConfig(ids[0]) : [];
    }
    let name: string;
    try {
      name = recordName(parseReference(refOrId));
    } catch (err) {
      // A short hex string that is not a valid reference may still be an ID prefix.
      if (hex !== undefined) {
        const ids = this.store.idsWithPrefix(hex);
        if (ids.length === 1) return this.store.listByConfig(ids[0]);
      }
      throw err;
    }
    const record = this.store.tryGet(name);
    if (record) return [record];
    if (hex !== undefined) {
      const ids = this.store.idsWithPrefix(hex);
      if (ids.length === 1) return this.store.listByConfig(ids[0]);
    }
    return [];
  }

  private resolveTarget(record: ImageRecord): Promise<ResolvedImage> {
    const key = record.target.digest;
    let p = this.resolvedByTarget.get(key);
    if (!p) {
      p = resolveImage(this.content, record.target, this.platform, `image ${record.name}`);
      p.catch(() => this.resolvedByTarget.delete(key));
      this.resolvedByTarget.set(key, p);
    }
    return p;
  }

  private async view(id: string, records: ImageRecord[]): Promise<CriImage> {
    const resolved = await this.resolveTarget(records[0]);
    return toCriImage(id, records, resolved.config, imageSize(resolved));
  }
}

// Pulling an image: resolve the reference to a manifest (choosing our platform from an index),
// fetch config and layers a few at a time straight into the content store with digest checks,
// hand each finished layer to the caller (so unpacking overlaps the download), unpack, and only
// then record the image. Concurrent pulls of one reference share one download; concurrent pulls
// of different references share blob downloads.
import type { Descriptor, ContentLease } from '../../content/types';
import { wrap } from '../../errdefs/errors';
import { silentLogger } from '../../log/logger';
import { collectGarbage } from '../gc';
import type { ImageDeps, UnpackFn } from '../import';
import { isIndexType, parseIndex, parseManifest } from '../oci';
import { formatReference, objectOf, parseReference, type Reference } from '../reference';
import type { ImageRecord } from '../store';
import { hostPlatform, resolveImage, selectManifest, type Platform } from '../walk';
import { Authorizer, type AuthConfig } from './auth';
import { resolveHosts } from './hosts';
import { RegistryClient } from './registry_client';

export interface PullerOptions extends ImageDeps {
  /** containerd's registry config_path: a directory of <domain>/hosts.toml. */
  configPath?: string;
  /** Blobs fetched at once. */
  concurrency?: number;
  platform?: Platform;
}

export interface PullOptions {
  auth?: AuthConfig;
  labels?: Record<string, string>;
  /** Called once per layer as soon as its blob is complete (any order; index is base-first). */
  onLayer?: (index: number, layer: Descriptor) => Promise<void> | void;
  /** Called after every blob is verified, before the image is recorded. */
  unpack?: UnpackFn;
}

/** The name a pull records: a digest reference drops its tag, as containerd's ParseDockerRef does. */
export function pullName(ref: Reference): string {
  return formatReference(ref.digest !== undefined ? { domain: ref.domain, path: ref.path, digest: ref.digest } : ref);
}

export class Puller {
  private readonly pulls = new Map<string, Promise<ImageRecord>>();
  private readonly blobs = new Map<string, Promise<void>>();

  constructor(private readonly opts: PullerOptions) {}

  /** Pulls `reference`; a pull of the same reference already under way is joined, not repeated. */
  async pull(reference: string, opts: PullOptions = {}): Promise<ImageRecord> {
    const ref = parseReference(reference);
    const name = pullName(ref);
    const running = this.pulls.get(name);
    if (running) return running;
    const p = this.pullOnce(ref, name, opts).finally(() => this.pulls.delete(name));
    this.pulls.set(name, p);
    return p;
  }

  private async pullOnce(ref: Reference, name: string, opts: PullOptions): Promise<ImageRecord> {
    const { content, images } = this.opts;
    const log = (this.opts.logger ?? silentLogger).with({ image: name });
    const platform = this.opts.platform ?? hostPlatform();
    const client = new RegistryClient(resolveHosts(this.opts.configPath, ref.domain), ref.path, new Authorizer(opts.auth));
    const lease = content.lease();
    try {
      const root = await client.resolve(objectOf(ref));
      await content.writeBytes(root.desc, root.data, lease);
      // Down through indexes to our platform's manifest.
      let desc = root.desc;
      let data = root.data;
      for (let depth = 0; isIndexType(desc.mediaType); depth++) {
        if (depth >= 4) throw wrap(new Error('indexes nested too deeply'), `pull ${name}`);
        desc = selectManifest(parseIndex(`index ${desc.digest}`, data), platform, `image ${name}: index ${desc.digest}`);
        data = (await content.has(desc.digest)) ? await content.readBytes(desc.digest) : await client.fetchManifest(desc);
        await content.writeBytes(desc, data, lease);
      }
      const manifest = parseManifest(`image ${name}: manifest ${desc.digest}`, data);
      await this.fetchBlobs(client, manifest.config, manifest.layers, lease, opts);
      const resolved = await resolveImage(content, root.desc, platform, `image ${name}`);
      if (opts.unpack) await opts.unpack({ ...resolved, names: [name] });
      const record = images.put({ name, target: root.desc, configDigest: resolved.configDesc.digest, labels: opts.labels });
      log.info('pulled image', { target: root.desc.digest, id: record.configDigest });
      return record;
    } catch (err) {
      lease.release();
      await collectGarbage(content, images, lease.created).catch(() => []);
      throw wrap(err, `pull ${name}`);
    } finally {
      lease.release();
    }
  }

  /** Config and layers with bounded parallelism; onLayer as each layer completes. */
  private async fetchBlobs(
    client: RegistryClient,
    config: Descriptor,
    layers: Descriptor[],
    lease: ContentLease,
    opts: PullOptions,
  ): Promise<void> {
    const queue: { desc: Descriptor; layer?: number }[] = [{ desc: config }, ...layers.map((desc, layer) => ({ desc, layer }))];
    const callbacks: Promise<void>[] = [];
    let failed = false;
    const worker = async () => {
      for (let job = queue.shift(); job && !failed; job = queue.shift()) {
        try {
          await this.fetchBlob(client, job.desc, lease);
        } catch (err) {
          failed = true;
          throw err;
        }
        if (job.layer !== undefined && opts.onLayer) {
          const index = job.layer;
          const desc = job.desc;
          callbacks.push(Promise.resolve().then(() => opts.onLayer?.(index, desc)));
        }
      }
    };
    const n = Math.max(1, Math.min(this.opts.concurrency ?? 3, queue.length));
    const results = await Promise.allSettled(Array.from({ length: n }, worker));
    const cbResults = await Promise.allSettled(callbacks);
    for (const r of [...results, ...cbResults]) if (r.status === 'rejected') throw r.reason;
  }

  /** One blob, unless present; a download of the same digest already under way is joined. */
  private async fetchBlob(client: RegistryClient, desc: Descriptor, lease: ContentLease): Promise<void> {
    lease.add(desc.digest);
    if (await this.opts.content.has(desc.digest)) return;
    let running = this.blobs.get(desc.digest);
    if (!running) {
      running = (async () => {
        const res = await client.openBlob(desc);
        await this.opts.content.ingest({ digest: desc.digest, size: desc.size }, res.body, lease);
      })().finally(() => this.blobs.delete(desc.digest));
      this.blobs.set(desc.digest, running);
    }
    await running;
  }
}

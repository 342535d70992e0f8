// Pulling an image: resolve the reference to a manifest (choosing our platform from an index),
// fetch the config, then the layers a few at a time straight into the content store with digest
// checks while the unpack already runs (each layer's extraction waits for its own blob), and only
// then record the image. Concurrent pulls of one reference share one download; concurrent pulls
// of different references share blob downloads. Each is stopped when every caller waiting for it
// has gone away (SharedTask).
import { createHash } from 'node:crypto';
import type { Descriptor, ContentLease } from '../../content/types';
import { invalidArgument, kindOf, unavailable, wrap } from '../../errdefs/errors';
import { silentLogger } from '../../log/logger';
import { checkDocumentSize, MAX_CONFIG_BYTES, MAX_MANIFEST_BYTES, readDocument } from '../document';
import { collectGarbage } from '../gc';
import type { ImageDeps, UnpackFn } from '../import';
import { isIndexType, isLayerType, parseIndex, parseManifest } from '../oci';
import { objectOf, parseReference, recordName, type Reference } from '../reference';
import type { ImageRecord } from '../store';
import { onlyPlatform } from '../platforms';
import { hostPlatform, MAX_INDEX_DEPTH, resolveImage, selectManifest, type Platform } from '../walk';
import { Authorizer, type AuthConfig } from './auth';
import { resolveHosts } from './hosts';
import { RegistryClient } from './registry_client';
import { SharedTask } from './shared_task';

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
  /**
   * Called once the manifest and config are stored, while the layers may still be downloading
   * (the request's layerReady says when each is); the image is recorded after it and every
   * download succeeded.
   */
  unpack?: UnpackFn;
  /** The caller went away: its wait ends, and the pull stops unless another caller joined it. */
  signal?: AbortSignal;
}

/**
 * What tells pulls apart besides the name: the caller's credentials. A caller joins only a pull made
 * with the same ones, so nobody gets an image through credentials of another caller (containerd
 * resolves each PullImage with its own, sharing only blob downloads), nor is failed by wrong ones.
 */
function credentialsKey(auth: AuthConfig | undefined): string {
  if (auth === undefined) return '';
  const fields = (['username', 'password', 'auth', 'identity_token', 'registry_token', 'server_address'] as const).map((k) => auth[k] ?? '');
  return createHash('sha256').update(JSON.stringify(fields)).digest('hex');
}

export class Puller {
  private readonly pulls = new Map<string, SharedTask<ImageRecord>>();
  private readonly blobs = new Map<string, SharedTask<void>>();

  constructor(private readonly opts: PullerOptions) {}

  /** Pulls `reference`; a pull of the same reference with the same credentials already under way is joined, not repeated. */
  async pull(reference: string, opts: PullOptions = {}): Promise<ImageRecord> {
    const ref = parseReference(reference);
    // The name it records: a digest reference drops its tag, as containerd's ParseDockerRef does.
    const name = recordName(ref);
    const key = `${name} ${credentialsKey(opts.auth)}`;
    let running = this.pulls.get(key);
    if (!running || running.abandoned) {
      const task = new SharedTask((signal) => this.pullOnce(ref, name, opts, signal));
      void task.result.catch(() => undefined).finally(() => this.pulls.get(key) === task && this.pulls.delete(key));
      this.pulls.set(key, task);
      running = task;
    }
    return running.join(opts.signal, `pull ${name}`);
  }

  private async pullOnce(ref: Reference, name: string, opts: PullOptions, signal: AbortSignal): Promise<ImageRecord> {
    const { content, images } = this.opts;
    const log = (this.opts.logger ?? silentLogger).with({ image: name });
    const platform = this.opts.platform ?? hostPlatform();
    const authorizer = new Authorizer(opts.auth, ref.domain);
    const client = new RegistryClient(resolveHosts(this.opts.configPath, ref.domain), ref.path, authorizer, signal);
    const lease = content.lease();
    try {
      const root = await client.resolve(objectOf(ref));
      await content.writeBytes(root.desc, root.data, lease);
      // Down through indexes to our platform's manifest.
      let desc = root.desc;
      let data = root.data;
      const matcher = onlyPlatform(platform);
      for (let depth = 0; isIndexType(desc.mediaType); depth++) {
        if (depth >= MAX_INDEX_DEPTH) throw invalidArgument(`pull ${name}: indexes nested more than ${MAX_INDEX_DEPTH} deep`);
        desc = selectManifest(parseIndex(`index ${desc.digest}`, data), matcher, `image ${name}: index ${desc.digest}`);
        data = (await content.has(desc.digest))
          ? await readDocument(content, desc, MAX_MANIFEST_BYTES, `image ${name}: manifest ${desc.digest}`)
          : await client.fetchManifest(desc);
        await content.writeBytes(desc, data, lease);
      }
      const manifest = parseManifest(`image ${name}: manifest ${desc.digest}`, data);
      // Refused before it is downloaded: the config is read whole into memory to be parsed.
      checkDocumentSize(`image ${name}: config ${manifest.config.digest}`, manifest.config.size, MAX_CONFIG_BYTES);
      // The config first: its diff IDs let the unpack start while the layers download, each
      // layer's extraction waiting only for its own blob.
      await this.fetchBlob(client, manifest.config, lease, signal);
      // A layer that cannot be unpacked stops the downloads still going (as containerd's unpacker
      // cancels its fetches): a bad first layer must not have every later one fetched first.
      const unpackFailed = new AbortController();
      // Every entry, as containerd fetches them (a signature listed among the layers too: an export
      // names it); the unpack's layer i is the i-th of those that are layer types.
      const layers = this.fetchLayers(client, manifest.layers, lease, opts, AbortSignal.any([signal, unpackFailed.signal]));
      const layerAt = manifest.layers.flatMap((l, i) => (isLayerType(l.mediaType) ? [i] : []));
      const resolved = await resolveImage(content, root.desc, platform, `image ${name}`).catch(async (err: unknown) => {
        unpackFailed.abort(); // nothing will unpack them: the downloads stop
        await layers.all.catch(() => undefined);
        throw err;
      });
      const unpacking = opts.unpack?.({ ...resolved, names: [name], layerReady: (i) => layers.each[layerAt[i]!] ?? Promise.resolve() });
      // Not when the unpack failed for want of a layer whose download failed: that one is reported.
      unpacking?.catch(() => layers.downloadFailed() || unpackFailed.abort());
      const [fetched, unpacked] = await Promise.allSettled([layers.all, unpacking]);
      if (unpacked.status === 'rejected' && unpackFailed.signal.aborted) throw unpacked.reason;
      // A failed download also fails the unpack waiting for it: report the download.
      if (fetched.status === 'rejected') throw fetched.reason;
      if (unpacked.status === 'rejected') throw unpacked.reason;
      const record = images.put({ name, target: root.desc, configDigest: resolved.configDesc.digest, labels: opts.labels });
      log.info('pulled image', { target: root.desc.digest, id: record.configDigest });
      return record;
    } catch (err) {
      lease.release();
      // Everything the pull held, not only what it wrote: a blob another failed pull wrote was
      // spared by that pull's GC while this one held it, and nothing else would collect it.
      await collectGarbage(content, images, lease.held).catch(() => []);
      throw wrap(err, `pull ${name}`);
    } finally {
      lease.release();
    }
  }

  /**
   * Starts fetching the layers, a few at a time; `each[i]` settles when layer i is stored (or
   * cannot be), `all` when every fetch and onLayer callback is done; `downloadFailed` says whether
   * one failed (also by `signal` aborting it). After a failure no new
   * fetch starts, and the layers still queued reject with that failure.
   */
  private fetchLayers(
    client: RegistryClient,
    layers: Descriptor[],
    lease: ContentLease,
    opts: PullOptions,
    signal: AbortSignal,
  ): { each: Promise<void>[]; all: Promise<void>; downloadFailed: () => boolean } {
    const settle: Array<{ resolve: () => void; reject: (err: unknown) => void }> = [];
    const each = layers.map(
      () =>
        new Promise<void>((resolve, reject) => {
          settle.push({ resolve, reject });
        }),
    );
    // Nobody may wait for a layer (already unpacked): its failure is reported through `all`.
    for (const p of each) p.catch(() => undefined);
    const queue = layers.map((_, i) => i);
    const callbacks: Promise<void>[] = [];
    let failure: unknown;
    const worker = async () => {
      for (let i = queue.shift(); i !== undefined; i = queue.shift()) {
        if (failure !== undefined) {
          settle[i]!.reject(failure);
          continue;
        }
        const desc = layers[i]!;
        try {
          await this.fetchBlob(client, desc, lease, signal);
        } catch (err) {
          failure ??= err;
          settle[i]!.reject(err);
          continue;
        }
        settle[i]!.resolve();
        if (opts.onLayer) {
          const index = i;
          callbacks.push(Promise.resolve().then(() => opts.onLayer?.(index, desc)));
        }
      }
    };
    const n = Math.max(1, Math.min(this.opts.concurrency ?? 3, queue.length));
    const all = (async () => {
      await Promise.all(Array.from({ length: n }, worker));
      const cbResults = await Promise.allSettled(callbacks);
      if (failure !== undefined) throw failure;
      for (const r of cbResults) if (r.status === 'rejected') throw r.reason;
    })();
    return { each, all, downloadFailed: () => failure !== undefined };
  }

  /**
   * One blob, unless present; a download of the same digest already under way is joined. It stops
   * (its ingest removed) once every pull waiting for it was given up.
   */
  private async fetchBlob(client: RegistryClient, desc: Descriptor, lease: ContentLease, signal: AbortSignal): Promise<void> {
    lease.add(desc.digest);
    if (await this.opts.content.has(desc.digest)) return;
    const running = this.blobs.get(desc.digest);
    if (running && !running.abandoned) {
      // A download another pull started may come from another registry, one that fails or
      // corrupts it: then this pull fetches the blob from its own, once (as containerd's waiter on
      // another's ingest fetches it itself once that ends without the blob).
      try {
        return await running.join(signal, `blob ${desc.digest}`);
      } catch (err) {
        if (signal.aborted) throw err;
        if (await this.opts.content.has(desc.digest)) return;
      }
    }
    return this.downloadBlob(client, desc, lease, signal);
  }

  /** Downloads the blob, or joins a download of it under way (started meanwhile). */
  private async downloadBlob(client: RegistryClient, desc: Descriptor, lease: ContentLease, signal: AbortSignal): Promise<void> {
    let running = this.blobs.get(desc.digest);
    if (!running || running.abandoned) {
      const task = new SharedTask(async (blobSignal) => {
        const res = await client.openBlob(desc, blobSignal);
        let cutOff: Error | undefined;
        res.body.once('error', (err) => (cutOff ??= err));
        await this.opts.content.ingest({ digest: desc.digest, size: desc.size }, res.body, lease).catch((err: unknown) => {
          // The registry's connection failing mid-body ("aborted", ECONNRESET) is the network's
          // failure (UNAVAILABLE), not an unknown one; the store's own (digest, full disk) stay.
          if (cutOff === undefined || blobSignal.aborted || kindOf(err) !== 'Internal') throw err;
          throw unavailable(`registry ${res.url.host}: reading blob ${desc.digest}: ${cutOff.message}`, err);
        });
      });
      void task.result.catch(() => undefined).finally(() => this.blobs.get(desc.digest) === task && this.blobs.delete(desc.digest));
      this.blobs.set(desc.digest, task);
      running = task;
    }
    await running.join(signal, `blob ${desc.digest}`);
  }
}

// Admin/ExportImage: streams one image as an OCI image layout archive (oci-layout, index.json,
// blobs/sha256/...) that Admin/ImportImage (and `ctr images import`) take back. The index names the
// host platform's manifest, so the archive holds exactly the blobs berthd has; each of the image's
// tag names (or just the one asked for) is an index entry with containerd's name annotations.
import type * as grpc from '@grpc/grpc-js';
import { pipeline } from 'node:stream/promises';
import { pack as tarPack, type Pack } from 'tar-stream';
import type { ExportImageChunk } from '../../api/gen/berth/admin/v1/ExportImageChunk';
import type { ExportImageRequest__Output } from '../../api/gen/berth/admin/v1/ExportImageRequest';
import type { Descriptor } from '../../content/types';
import { invalidArgument, notFound, wrap } from '../../errdefs/errors';
import { ANNOTATION_IMAGE_NAME, ANNOTATION_REF_NAME } from '../../images/import';
import { MediaType } from '../../images/oci';
import { formatReference, parseReference } from '../../images/reference';
import type { CriService } from './service';

type ExportStream = grpc.ServerWritableStream<ExportImageRequest__Output, ExportImageChunk>;

/** The reference `image` names, normalised; undefined for an ID or ID prefix. */
function referenceOf(image: string): string | undefined {
  try {
    return formatReference(parseReference(image));
  } catch {
    return undefined;
  }
}

/**
 * The names to put in the archive: the one asked for, else every name of the image; only those a
 * re-import can keep (a digest name would not match the platform manifest exported unless it is that one).
 */
function exportNames(requested: string, names: string[], manifestDigest: string): string[] {
  const asked = referenceOf(requested);
  const chosen = asked !== undefined && names.includes(asked) ? [asked] : names;
  return chosen
    .filter((name) => {
      if (referenceOf(name) !== name) return false; // the bare ID recorded as a name, as containerd's CRI does
      const digest = parseReference(name).digest;
      return digest === undefined || digest === manifestDigest;
    })
    .sort();
}

function indexEntry(manifest: Descriptor, name: string | undefined): Descriptor {
  const entry: Descriptor = { mediaType: manifest.mediaType, digest: manifest.digest, size: manifest.size };
  if (name !== undefined) {
    const tag = parseReference(name).tag;
    entry.annotations = { [ANNOTATION_IMAGE_NAME]: name, ...(tag !== undefined ? { [ANNOTATION_REF_NAME]: tag } : {}) };
  }
  return entry;
}

function addBytes(pack: Pack, name: string, data: Buffer): Promise<void> {
  return new Promise((resolve, reject) => pack.entry({ name, size: data.length, mode: 0o644 }, data, (err) => (err ? reject(err) : resolve())));
}

/** Waits for room in the gRPC stream (or its end), leaving no listener behind. */
function writable(stream: ExportStream): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => {
      for (const e of ['drain', 'cancelled', 'close', 'error'] as const) stream.removeListener(e, done);
      resolve();
    };
    for (const e of ['drain', 'cancelled', 'close', 'error'] as const) stream.once(e, done);
  });
}

export async function exportImage(svc: CriService, req: ExportImageRequest__Output, stream: ExportStream): Promise<void> {
  const rt = svc.rt;
  if (req.image === '') throw invalidArgument('export image: image is empty');
  let id: string;
  try {
    id = rt.images.resolveId(req.image);
  } catch (err) {
    throw wrap(err, 'export image');
  }
  const resolved = await rt.images.resolve(id);
  const records = rt.images.store.listByConfig(id);
  if (records.length === 0) throw notFound(`export image: image ${JSON.stringify(req.image)} not found`);
  const entryNames = exportNames(req.image, records.map((r) => r.name), resolved.manifestDesc.digest);

  const index = {
    schemaVersion: 2,
    mediaType: MediaType.ociIndex,
    manifests: (entryNames.length > 0 ? entryNames : [undefined]).map((n) => indexEntry(resolved.manifestDesc, n)),
  };
  const blobs = [resolved.manifestDesc, resolved.configDesc, ...resolved.layers].filter(
    (d, i, all) => all.findIndex((o) => o.digest === d.digest) === i,
  );

  const pack = tarPack();
  const stop = () => pack.destroy();
  stream.once('cancelled', stop);
  const producing = (async () => {
    await addBytes(pack, 'oci-layout', Buffer.from(JSON.stringify({ imageLayoutVersion: '1.0.0' })));
    await addBytes(pack, 'index.json', Buffer.from(JSON.stringify(index)));
    for (const blob of blobs) {
      const hex = blob.digest.slice('sha256:'.length);
      const entry = pack.entry({ name: `blobs/sha256/${hex}`, size: blob.size, mode: 0o444 });
      await pipeline(rt.content.readStream(blob.digest), entry);
    }
    pack.finalize();
  })();
  producing.catch(() => pack.destroy());
  try {
    for await (const chunk of pack as AsyncIterable<Buffer>) {
      if (stream.cancelled) break;
      if (!stream.write({ data: chunk })) await writable(stream);
    }
    if (!stream.cancelled) await producing;
  } catch (err) {
    await producing.catch(() => undefined);
    throw wrap(err, `export image ${req.image}`);
  } finally {
    stream.removeListener('cancelled', stop);
  }
  svc.logger.info('exported image', { image: req.image, id, names: entryNames });
}

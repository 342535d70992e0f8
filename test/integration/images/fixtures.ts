// Tiny image archives built in the test, for the edge cases the shared test images do not cover.
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { pack } from 'tar-stream';
import { MediaType } from '../../../internal/images/oci';

export const sha = (b: Buffer): string => `sha256:${createHash('sha256').update(b).digest('hex')}`;

export async function tarOf(files: Record<string, Buffer | string>): Promise<Buffer> {
  const p = pack();
  const parts: Buffer[] = [];
  p.on('data', (c: unknown) => void parts.push(c as Buffer));
  const done = new Promise<void>((resolve, reject) => {
    p.on('end', resolve);
    p.on('error', reject);
  });
  for (const [name, data] of Object.entries(files)) {
    p.entry({ name, mtime: new Date(0) }, typeof data === 'string' ? Buffer.from(data) : data);
  }
  p.finalize();
  await done;
  return Buffer.concat(parts);
}

export interface TinyImage {
  layer: Buffer; // gzipped
  diffId: string;
  config: Buffer;
  manifest: Buffer;
}

export async function tinyImage(marker: string): Promise<TinyImage> {
  const raw = await tarOf({ 'hello.txt': `hello ${marker}\n` });
  const layer = gzipSync(raw);
  const config = Buffer.from(
    JSON.stringify({
      architecture: 'amd64',
      os: 'linux',
      config: { Env: ['PATH=/bin', `MARKER=${marker}`], Cmd: ['/bin/sh'], User: '1000:1000', Volumes: { '/data': {} } },
      rootfs: { type: 'layers', diff_ids: [sha(raw)] },
    }),
  );
  const manifest = Buffer.from(
    JSON.stringify({
      schemaVersion: 2,
      mediaType: MediaType.ociManifest,
      config: { mediaType: MediaType.ociConfig, digest: sha(config), size: config.length },
      layers: [{ mediaType: MediaType.ociLayerGzip, digest: sha(layer), size: layer.length }],
    }),
  );
  return { layer, diffId: sha(raw), config, manifest };
}

/** Writes an OCI layout archive; `annotations` go on the index entry; `corrupt` swaps a blob's bytes. */
export async function writeOciArchive(
  path: string,
  img: TinyImage,
  opts: { annotations?: Record<string, string>; corrupt?: 'layer' } = {},
): Promise<void> {
  const blob = (b: Buffer) => `blobs/sha256/${sha(b).slice(7)}`;
  const index = {
    schemaVersion: 2,
    mediaType: MediaType.ociIndex,
    manifests: [
      {
        mediaType: MediaType.ociManifest,
        digest: sha(img.manifest),
        size: img.manifest.length,
        annotations: opts.annotations,
        platform: { architecture: 'amd64', os: 'linux' },
      },
    ],
  };
  const layerBytes = opts.corrupt === 'layer' ? Buffer.from(img.layer).fill(0, 10, 20) : img.layer;
  writeFileSync(
    path,
    await tarOf({
      'oci-layout': '{"imageLayoutVersion":"1.0.0"}',
      [blob(img.config)]: img.config,
      [blob(img.layer)]: layerBytes,
      [blob(img.manifest)]: img.manifest,
      'index.json': JSON.stringify(index),
    }),
  );
}

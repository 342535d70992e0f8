// One image in memory: its layers (uncompressed tar plus the blob stored for it), its config and
// its OCI manifest, each with the digest the archive writers and tests need. Built once, written
// out in any archive format.
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { canonicalJson, type JsonValue } from './canonical-json';
import { CREATED } from './names';
import { tarBuffer, type TarEntry } from './tarball';

const gzipAsync = promisify(gzip);

/** Fixed so the compressed bytes never change; Node's zlib writes a zero mtime in the gzip header. */
export const GZIP_LEVEL = 6;

export const MEDIA_TYPES = {
  index: 'application/vnd.oci.image.index.v1+json',
  manifest: 'application/vnd.oci.image.manifest.v1+json',
  config: 'application/vnd.oci.image.config.v1+json',
  layerGzip: 'application/vnd.oci.image.layer.v1.tar+gzip',
  layerTar: 'application/vnd.oci.image.layer.v1.tar',
} as const;

export interface LayerSpec {
  entries: readonly TarEntry[];
  compression: 'gzip' | 'none';
  /** Recorded in the config's history, like a Dockerfile step. */
  createdBy: string;
}

/** The `config` object of an OCI image config; only the fields these images use. */
export interface RunConfig {
  Cmd?: string[];
  Entrypoint?: string[];
  Env: string[];
  User?: string;
  WorkingDir?: string;
}

export interface ImageSpec {
  name: string;
  layers: readonly LayerSpec[];
  config: RunConfig;
}

export interface Descriptor {
  mediaType: string;
  digest: string;
  size: number;
}

export interface BuiltLayer {
  /** The uncompressed tar; its digest is the diff ID. */
  tar: Buffer;
  diffId: string;
  /** What the OCI archive stores: `tar` itself or its gzip. */
  blob: Buffer;
  descriptor: Descriptor;
}

export interface BuiltImage {
  name: string;
  layers: BuiltLayer[];
  config: Buffer;
  configDescriptor: Descriptor;
  manifest: Buffer;
  manifestDescriptor: Descriptor;
}

export function sha256Digest(data: Uint8Array): string {
  return `sha256:${createHash('sha256').update(data).digest('hex')}`;
}

export function hexOf(digest: string): string {
  return digest.slice(digest.indexOf(':') + 1);
}

async function buildLayer(spec: LayerSpec): Promise<BuiltLayer> {
  const tar = await tarBuffer(spec.entries);
  const blob = spec.compression === 'gzip' ? await gzipAsync(tar, { level: GZIP_LEVEL }) : tar;
  const mediaType = spec.compression === 'gzip' ? MEDIA_TYPES.layerGzip : MEDIA_TYPES.layerTar;
  return { tar, diffId: sha256Digest(tar), blob, descriptor: { mediaType, digest: sha256Digest(blob), size: blob.length } };
}

function configJson(spec: ImageSpec, layers: readonly BuiltLayer[]): JsonValue {
  const runConfig: { [key: string]: JsonValue } = { Env: spec.config.Env };
  if (spec.config.Cmd) runConfig.Cmd = spec.config.Cmd;
  if (spec.config.Entrypoint) runConfig.Entrypoint = spec.config.Entrypoint;
  if (spec.config.User) runConfig.User = spec.config.User;
  if (spec.config.WorkingDir) runConfig.WorkingDir = spec.config.WorkingDir;
  return {
    architecture: 'amd64',
    os: 'linux',
    created: CREATED,
    config: runConfig,
    rootfs: { type: 'layers', diff_ids: layers.map((l) => l.diffId) },
    history: spec.layers.map((l) => ({ created: CREATED, created_by: l.createdBy })),
  };
}

export function descriptorJson(d: Descriptor): { [key: string]: JsonValue } {
  return { mediaType: d.mediaType, digest: d.digest, size: d.size };
}

export async function buildImage(spec: ImageSpec): Promise<BuiltImage> {
  const layers: BuiltLayer[] = [];
  // One at a time: layers can be tens of MiB and the machine is shared.
  for (const layer of spec.layers) layers.push(await buildLayer(layer));
  const config = Buffer.from(canonicalJson(configJson(spec, layers)));
  const configDescriptor = { mediaType: MEDIA_TYPES.config, digest: sha256Digest(config), size: config.length };
  const manifest = Buffer.from(
    canonicalJson({
      schemaVersion: 2,
      mediaType: MEDIA_TYPES.manifest,
      config: descriptorJson(configDescriptor),
      layers: layers.map((l) => descriptorJson(l.descriptor)),
    }),
  );
  const manifestDescriptor = { mediaType: MEDIA_TYPES.manifest, digest: sha256Digest(manifest), size: manifest.length };
  return { name: spec.name, layers, config, configDescriptor, manifest, manifestDescriptor };
}

// OCI / Docker schema2 documents: media types and the shapes we read (checked with zod, since they
// come from archives and registries we do not control).
import { z } from 'zod/v3';
import type { Descriptor } from '../content/types';
import { invalidArgument } from '../errdefs/errors';

export const MediaType = {
  ociIndex: 'application/vnd.oci.image.index.v1+json',
  ociManifest: 'application/vnd.oci.image.manifest.v1+json',
  ociConfig: 'application/vnd.oci.image.config.v1+json',
  ociLayer: 'application/vnd.oci.image.layer.v1.tar',
  ociLayerGzip: 'application/vnd.oci.image.layer.v1.tar+gzip',
  ociLayerZstd: 'application/vnd.oci.image.layer.v1.tar+zstd',
  dockerManifestList: 'application/vnd.docker.distribution.manifest.list.v2+json',
  dockerManifest: 'application/vnd.docker.distribution.manifest.v2+json',
  dockerConfig: 'application/vnd.docker.container.image.v1+json',
  dockerLayer: 'application/vnd.docker.image.rootfs.diff.tar',
  dockerLayerGzip: 'application/vnd.docker.image.rootfs.diff.tar.gzip',
} as const;

export const isIndexType = (mt: string): boolean => mt === MediaType.ociIndex || mt === MediaType.dockerManifestList;
export const isManifestType = (mt: string): boolean => mt === MediaType.ociManifest || mt === MediaType.dockerManifest;

const DOCKER_LAYER_TYPES: ReadonlySet<string> = new Set([
  MediaType.dockerLayer,
  MediaType.dockerLayerGzip,
  'application/vnd.docker.image.rootfs.foreign.diff.tar',
  'application/vnd.docker.image.rootfs.foreign.diff.tar.gzip',
]);

/**
 * A manifest entry that is a filesystem layer (containerd's images.IsLayerType): any OCI layer
 * type, or Docker's (suffixes after '+' ignored). Other entries a manifest may list among its
 * layers (signatures, attestations) are no part of the rootfs and have no diff ID.
 */
export const isLayerType = (mt: string): boolean =>
  mt.startsWith('application/vnd.oci.image.layer.') || DOCKER_LAYER_TYPES.has(mt.split('+')[0]!);

/** The entries of a manifest's `layers` that make the rootfs, in order. */
export const imageLayers = (manifest: { layers: Descriptor[] }): Descriptor[] => manifest.layers.filter((l) => isLayerType(l.mediaType));

/** Accept header for manifest requests, in order of preference. */
export const MANIFEST_ACCEPT = [
  MediaType.ociIndex,
  MediaType.dockerManifestList,
  MediaType.ociManifest,
  MediaType.dockerManifest,
].join(', ');

const descriptorSchema = z.object({
  mediaType: z.string(),
  digest: z.string().regex(/^sha256:[a-f0-9]{64}$/),
  // containerd's int64 refuses 1e300; here a size past 2^53-1 could not be added up exactly (an
  // image's size, which kubelet's image GC weighs) and printed 1e300 as ImageStatus size "1".
  size: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER),
  annotations: z.record(z.string(), z.string()).optional(),
  urls: z.array(z.string()).optional(),
  platform: z
    .object({
      architecture: z.string(),
      os: z.string(),
      variant: z.string().optional(),
      'os.version': z.string().optional(),
    })
    .optional(),
});

const manifestSchema = z.object({
  schemaVersion: z.literal(2),
  mediaType: z.string().optional(),
  config: descriptorSchema,
  layers: z.array(descriptorSchema),
  annotations: z.record(z.string(), z.string()).optional(),
});

const indexSchema = z.object({
  schemaVersion: z.literal(2),
  mediaType: z.string().optional(),
  manifests: z.array(descriptorSchema),
  annotations: z.record(z.string(), z.string()).optional(),
});

const stringList = z.array(z.string()).nullish();
const imageConfigSchema = z.object({
  architecture: z.string().optional(),
  os: z.string().optional(),
  variant: z.string().optional(),
  created: z.string().optional(),
  config: z
    .object({
      User: z.string().optional(),
      Env: stringList,
      Cmd: stringList,
      Entrypoint: stringList,
      WorkingDir: z.string().optional(),
      Volumes: z.record(z.string(), z.unknown()).nullish(),
      ExposedPorts: z.record(z.string(), z.unknown()).nullish(),
      StopSignal: z.string().optional(),
      Labels: z.record(z.string(), z.string()).nullish(),
    })
    .passthrough()
    .nullish(),
  rootfs: z.object({ type: z.string(), diff_ids: z.array(z.string().regex(/^sha256:[a-f0-9]{64}$/)) }),
});

export type Manifest = z.infer<typeof manifestSchema> & { config: Descriptor; layers: Descriptor[] };
export type Index = z.infer<typeof indexSchema> & { manifests: Descriptor[] };
export type ImageConfigDocument = z.infer<typeof imageConfigSchema>;

/** The parts of an image config a container is built from (OCI image-spec "config"). */
export interface ImageConfig {
  user: string;
  env: string[];
  cmd: string[];
  entrypoint: string[];
  workingDir: string;
  volumes: string[];
  exposedPorts: string[];
  stopSignal: string;
  labels: Record<string, string>;
  diffIds: string[];
  os: string;
  architecture: string;
}

function parseJSON(what: string, data: Buffer): unknown {
  try {
    return JSON.parse(data.toString('utf8'));
  } catch (err) {
    throw invalidArgument(`${what}: not valid JSON: ${(err as Error).message}`);
  }
}

function check<T>(what: string, schema: z.ZodType<T>, value: unknown): T {
  const res = schema.safeParse(value);
  if (!res.success) {
    const issue = res.error.issues[0];
    throw invalidArgument(`${what}: ${issue.path.join('.') || '(root)'}: ${issue.message}`);
  }
  return res.data;
}

/**
 * Docker's schema 1 (deprecated since 2017, refused by registries since 2020): containerd 1.6
 * converts it; berth says what it is instead of how its fields differ from schema 2.
 */
function refuseSchema1(what: string, doc: unknown): unknown {
  if ((doc as { schemaVersion?: unknown } | null)?.schemaVersion === 1) {
    throw invalidArgument(`${what}: a Docker schema 1 manifest, which berth does not read (push the image again with a current tool)`);
  }
  return doc;
}

export function parseManifest(what: string, data: Buffer): Manifest {
  return check(what, manifestSchema, refuseSchema1(what, parseJSON(what, data))) as Manifest;
}

export function parseIndex(what: string, data: Buffer): Index {
  return check(what, indexSchema, refuseSchema1(what, parseJSON(what, data))) as Index;
}

/** Media type of a manifest document when the descriptor did not say (OCI allows omitting it). */
export function sniffManifestType(data: Buffer): string | undefined {
  const doc = parseJSON('manifest', data) as { mediaType?: unknown; manifests?: unknown; config?: unknown };
  if (typeof doc.mediaType === 'string') return doc.mediaType;
  if (Array.isArray(doc.manifests)) return MediaType.ociIndex;
  if (doc.config !== undefined) return MediaType.ociManifest;
  return undefined;
}

export function parseImageConfig(what: string, data: Buffer): ImageConfig {
  const doc = check(what, imageConfigSchema, parseJSON(what, data));
  const c = doc.config ?? {};
  return {
    user: c.User ?? '',
    env: c.Env ?? [],
    cmd: c.Cmd ?? [],
    entrypoint: c.Entrypoint ?? [],
    workingDir: c.WorkingDir ?? '',
    volumes: Object.keys(c.Volumes ?? {}).sort(),
    exposedPorts: Object.keys(c.ExposedPorts ?? {}).sort(),
    stopSignal: c.StopSignal ?? '',
    labels: c.Labels ?? {},
    diffIds: doc.rootfs.diff_ids,
    os: doc.os ?? '',
    architecture: doc.architecture ?? '',
  };
}

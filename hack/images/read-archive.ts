// Reading archives back, for tests and tools: the tar records of an archive or layer, and the OCI
// layout's index, manifest and config, parsed and checked against their digests.
import { readFile } from 'node:fs/promises';
import { gunzipSync } from 'node:zlib';
import { extract, type Header } from 'tar-stream';
import { z } from 'zod/v3';
import { invalidArgument, notFound } from '../../internal/errdefs/errors';
import { hexOf, MEDIA_TYPES, sha256Digest } from './image';

export interface TarRecord {
  header: Header;
  data: Buffer;
}

/** Every record of an uncompressed tar, in archive order. */
export async function readTarRecords(tar: Uint8Array): Promise<TarRecord[]> {
  const records: TarRecord[] = [];
  const extractor = extract();
  const done = new Promise<void>((resolve, reject) => {
    extractor.on('entry', (header, stream, next) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: unknown) => {
        if (chunk instanceof Uint8Array) chunks.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
      });
      stream.on('end', () => {
        records.push({ header, data: Buffer.concat(chunks) });
        next();
      });
      stream.on('error', reject);
    });
    extractor.on('finish', () => resolve());
    extractor.on('error', reject);
  });
  extractor.end(Buffer.from(tar.buffer, tar.byteOffset, tar.byteLength));
  await done;
  return records;
}

const descriptorSchema = z.object({
  mediaType: z.string(),
  digest: z.string().regex(/^sha256:[0-9a-f]{64}$/),
  size: z.number().int().nonnegative(),
  annotations: z.record(z.string(), z.string()).optional(),
  platform: z.object({ architecture: z.string(), os: z.string() }).optional(),
});
export type OciDescriptor = z.infer<typeof descriptorSchema>;

const indexSchema = z.object({ schemaVersion: z.literal(2), mediaType: z.string().optional(), manifests: z.array(descriptorSchema) });
export type OciIndex = z.infer<typeof indexSchema>;

const manifestSchema = z.object({
  schemaVersion: z.literal(2),
  mediaType: z.string().optional(),
  config: descriptorSchema,
  layers: z.array(descriptorSchema),
});
export type OciManifest = z.infer<typeof manifestSchema>;

const imageConfigSchema = z.object({
  architecture: z.string(),
  os: z.string(),
  created: z.string().optional(),
  config: z
    .object({
      Cmd: z.array(z.string()).optional(),
      Entrypoint: z.array(z.string()).optional(),
      Env: z.array(z.string()).optional(),
      User: z.string().optional(),
      WorkingDir: z.string().optional(),
    })
    .optional(),
  rootfs: z.object({ type: z.literal('layers'), diff_ids: z.array(z.string()) }),
});
export type OciImageConfig = z.infer<typeof imageConfigSchema>;

export interface OciArchiveContents {
  /** Archive path -> record, for looking up any file. */
  files: Map<string, TarRecord>;
  index: OciIndex;
  manifest: OciManifest;
  config: OciImageConfig;
  /** The uncompressed tar of each layer, in manifest order. */
  layerTars: Buffer[];
}

function parseJson<T>(schema: z.ZodType<T>, data: Buffer, what: string): T {
  const result = schema.safeParse(JSON.parse(data.toString('utf8')));
  if (!result.success) throw invalidArgument(`${what} is malformed: ${result.error.message}`);
  return result.data;
}

export async function readOciArchiveIndex(path: string): Promise<OciIndex> {
  const records = await readTarRecords(await readFile(path));
  const index = records.find((r) => r.header.name === 'index.json');
  if (!index) throw notFound(`index.json in ${path}`);
  return parseJson(indexSchema, index.data, `index.json of ${path}`);
}

/** The blob a descriptor names, after checking its size and digest. */
export function blobOf(files: Map<string, TarRecord>, d: OciDescriptor, archive: string): Buffer {
  const record = files.get(`blobs/sha256/${hexOf(d.digest)}`);
  if (!record) throw notFound(`blob ${d.digest} in ${archive}`);
  if (record.data.length !== d.size || sha256Digest(record.data) !== d.digest) {
    throw invalidArgument(`blob ${d.digest} in ${archive} does not match its descriptor (size ${record.data.length}, want ${d.size})`);
  }
  return record.data;
}

/** Reads an OCI archive with one manifest and verifies every blob against its descriptor. */
export async function readOciArchive(path: string): Promise<OciArchiveContents> {
  const files = new Map((await readTarRecords(await readFile(path))).map((r) => [r.header.name, r] as const));
  const indexRecord = files.get('index.json');
  if (!indexRecord) throw notFound(`index.json in ${path}`);
  const index = parseJson(indexSchema, indexRecord.data, `index.json of ${path}`);
  if (index.manifests.length !== 1) throw invalidArgument(`${path} has ${index.manifests.length} manifests, want 1`);
  const manifest = parseJson(manifestSchema, blobOf(files, index.manifests[0], path), `manifest of ${path}`);
  const config = parseJson(imageConfigSchema, blobOf(files, manifest.config, path), `config of ${path}`);
  const layerTars = manifest.layers.map((layer) => {
    const blob = blobOf(files, layer, path);
    return layer.mediaType === MEDIA_TYPES.layerGzip ? gunzipSync(blob) : blob;
  });
  return { files, index, manifest, config, layerTars };
}

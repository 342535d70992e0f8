// The unpack floor: GNU tar extracting an image's layer blobs one after the other into one fresh
// directory on the filesystem the daemons unpack on (tar detects each blob's compression: `tar
// xzf` for the gzip ones). No content store, no snapshots, no path hardening: what creating these
// files costs on this filesystem, shown beside the daemons' unpack.
import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

interface OciDoc {
  manifests?: Array<{ digest: string }>;
  layers?: Array<{ digest: string }>;
}

const blobPath = (ociDir: string, digest: string): string => join(ociDir, 'blobs', 'sha256', digest.replace(/^sha256:/, ''));

/** Unpacks the OCI archive into `ociDir` and returns its first image's layer blobs, base first. */
export function layerBlobsOf(archive: string, ociDir: string): string[] {
  mkdirSync(ociDir, { recursive: true });
  execFileSync('tar', ['-xf', archive, '-C', ociDir]);
  const index = JSON.parse(readFileSync(join(ociDir, 'index.json'), 'utf8')) as OciDoc;
  const first = index.manifests?.[0]?.digest;
  if (first === undefined) throw new Error(`${archive}: index.json names no manifest`);
  const manifest = JSON.parse(readFileSync(blobPath(ociDir, first), 'utf8')) as OciDoc;
  return (manifest.layers ?? []).map((l) => blobPath(ociDir, l.digest));
}

/**
 * Wall time (ms) of `tar -xf` of each blob in turn into a new directory under `parent`; the
 * directory is removed afterwards, untimed.
 */
export async function timeTarExtract(blobs: readonly string[], parent: string): Promise<number> {
  const dir = mkdtempSync(join(parent, 'tar-floor-'));
  try {
    const start = process.hrtime.bigint();
    for (const blob of blobs) await promisify(execFile)('tar', ['-xf', blob, '-C', dir]);
    return Number(process.hrtime.bigint() - start) / 1e6;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

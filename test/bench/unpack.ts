// Benchmark (not a test): unpacks a synthetic 3-layer image with the overlay snapshotter, layers
// extracted concurrently (berth) against one at a time on the mounted parent (containerd's way),
// and the floor: GNU `tar -xzf` of the same layers into a directory on the same filesystem.
//   node dist/test/bench/unpack.js [files-per-layer=3000] [rounds=3]
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import * as tar from 'tar-stream';
import { MetadataDB } from '../../internal/metadata/db';
import { applyLayers, type Layer } from '../../internal/rootfs';
import { OverlaySnapshotter } from '../../internal/snapshots';
import { timeTarExtract } from './tar_floor';

interface SyntheticLayer extends Layer {
  blob: Buffer;
}

async function syntheticLayer(index: number, files: number): Promise<SyntheticLayer> {
  const pack = tar.pack();
  const chunks: Buffer[] = [];
  const done = (async () => {
    for await (const c of pack) chunks.push(Buffer.from(c as Uint8Array));
  })();
  const add = (header: tar.Header | { name: string; type: 'directory' }, data?: Buffer) =>
    new Promise<void>((resolve, reject) => {
      const cb = (err?: Error | null) => (err ? reject(err) : resolve());
      if (data) pack.entry(header, data, cb);
      else pack.entry(header, cb);
    });
  for (let d = 0; d < files / 100; d++) {
    await add({ name: `l${index}/d${d}/`, type: 'directory' });
    for (let f = 0; f < 100; f++) {
      const data = Buffer.alloc(1024 + ((f * 997) % 8192), (d + f) % 256);
      await add({ name: `l${index}/d${d}/f${f}`, size: data.length, mode: 0o644 } as tar.Header, data);
    }
  }
  pack.finalize();
  await done;
  const raw = Buffer.concat(chunks);
  const blob = gzipSync(raw, { level: 1 });
  const digest = (b: Buffer) => `sha256:${createHash('sha256').update(b).digest('hex')}`;
  return {
    blob,
    diffID: digest(raw),
    descriptor: { mediaType: 'application/vnd.oci.image.layer.v1.tar+gzip', digest: digest(blob), size: blob.length },
    open: async () => Readable.from([blob], { objectMode: false }),
  };
}

async function timeUnpack(layers: Layer[], sequential: boolean): Promise<number> {
  const root = mkdtempSync(join(tmpdir(), 'berth-bench-unpack-'));
  const db = MetadataDB.open(join(root, 'meta.db'));
  try {
    const sn = new OverlaySnapshotter({ root, db });
    const start = process.hrtime.bigint();
    await applyLayers(sn, layers, { sequential });
    return Number(process.hrtime.bigint() - start) / 1e6;
  } finally {
    db.close();
    rmSync(root, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const files = Number(process.argv[2] ?? 3000);
  const rounds = Number(process.argv[3] ?? 3);
  const layers = await Promise.all([0, 1, 2].map((i) => syntheticLayer(i, files)));
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
  // The blobs as files in the temp dir the unpacks use, for tar.
  const blobDir = mkdtempSync(join(tmpdir(), 'berth-bench-blobs-'));
  const blobs = layers.map((l, i) => {
    const path = join(blobDir, `layer${i}.tar.gz`);
    writeFileSync(path, l.blob);
    return path;
  });
  const results: Record<string, number[]> = { concurrent: [], sequential: [], 'tar -xzf': [] };
  try {
    for (let r = 0; r < rounds; r++) {
      results.sequential?.push(await timeUnpack(layers, true));
      results.concurrent?.push(await timeUnpack(layers, false));
      results['tar -xzf']?.push(await timeTarExtract(blobs, tmpdir()));
    }
  } finally {
    rmSync(blobDir, { recursive: true, force: true });
  }
  const mb = layers.reduce((n, l) => n + l.descriptor.size, 0) / 1e6;
  console.log(`unpack: 3 layers x ${files} files (${mb.toFixed(1)} MB gzip), median of ${rounds}`);
  for (const [mode, times] of Object.entries(results)) console.log(`  ${mode.padEnd(11)} ${median(times).toFixed(0)} ms`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});

// zstd layers on a Node without zlib's zstd (before 22.15, so Node 20): decompressed by the zstd
// tool (Debian's `zstd`, which `make deps` installs), streamed through it. containerd 1.6 reads
// application/vnd.oci.image.layer.v1.tar+zstd layers; a layer that cannot be read is no image.
import { spawn } from 'node:child_process';
import { PassThrough, type Readable } from 'node:stream';
import { unimplemented } from '../errdefs/errors';

const STDERR_KEPT_BYTES = 4096;

/**
 * The bytes of `compressed` run through `zstd -dc`. The stream errors when zstd fails (with what it
 * said), and ends only once zstd exited 0; destroyed early (an abandoned pull), it kills zstd.
 */
export function zstdDecompressedByTool(compressed: Readable, highWaterMark: number): Readable {
  const out = new PassThrough({ highWaterMark });
  const child = spawn('zstd', ['-dcq'], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    if (stderr.length < STDERR_KEPT_BYTES) stderr += chunk.toString('utf8');
  });
  child.on('error', (err: NodeJS.ErrnoException) => {
    out.destroy(
      err.code === 'ENOENT'
        ? unimplemented(`layer is zstd-compressed: this Node (${process.version}) cannot decompress it and no zstd tool is installed`)
        : err,
    );
  });
  // A zstd that stopped reading (it failed) closes its stdin: its exit says why, not EPIPE.
  child.stdin.on('error', () => undefined);
  compressed.on('error', (err) => out.destroy(err));
  compressed.pipe(child.stdin);
  child.stdout.pipe(out, { end: false });
  child.on('close', (code, signal) => {
    if (code === 0) out.end();
    else out.destroy(new Error(`zstd -dc failed (${signal ?? `exit ${code}`}): ${stderr.trim().slice(0, STDERR_KEPT_BYTES) || 'no output'}`));
  });
  out.on('close', () => {
    compressed.destroy();
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  return out;
}

// The pause image: one static binary at /pause, run as 65535:65535 with no shell, like
// registry.k8s.io/pause. The binary is compiled from pause/pause.c with the host's gcc.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { wrap } from '../../internal/errdefs/errors';
import { writeFileAtomic } from './atomic-file';
import type { ImageSpec } from './image';
import { DEFAULT_PATH_ENV, PAUSE_IMAGE } from './names';

const execFileAsync = promisify(execFile);

export const PAUSE_USER = '65535:65535';
export const GCC_FLAGS = ['-static', '-Os', '-s', '-Wall', '-Wextra', '-Werror'];

/** `gcc --version`'s first line: part of the pause binary's cache key. */
export async function gccVersion(): Promise<string> {
  const { stdout } = await execFileAsync('gcc', ['--version']);
  return stdout.split('\n')[0].trim();
}

/** Compiles `source` into `output` (0755), atomically. Returns the binary's bytes. */
export async function compilePause(source: string, output: string): Promise<Buffer> {
  // gcc writes into a private temp dir, so a killed compile never leaves a partial `output`.
  const workDir = await mkdtemp(join(tmpdir(), 'berth-pause-build-'));
  try {
    const built = join(workDir, 'pause');
    try {
      await execFileAsync('gcc', [...GCC_FLAGS, '-o', built, source]);
    } catch (err) {
      throw wrap(err, `compile ${source} with gcc ${GCC_FLAGS.join(' ')}`);
    }
    const binary = await readFile(built);
    await writeFileAtomic(output, binary, 0o755);
    return binary;
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}

export function pauseImageSpec(binary: Buffer): ImageSpec {
  return {
    name: PAUSE_IMAGE,
    layers: [
      {
        entries: [{ kind: 'file', path: 'pause', mode: 0o755, data: binary }],
        compression: 'gzip',
        createdBy: 'berth hack/images: gcc -static -Os -s pause.c',
      },
    ],
    config: { Entrypoint: ['/pause'], Env: [DEFAULT_PATH_ENV], User: PAUSE_USER, WorkingDir: '/' },
  };
}

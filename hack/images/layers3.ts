// The 3-layer image for benchmarks and unpack tests (~58 MB): (1) the busybox layer, (2) ~4000 small
// files in 40 directories with symlinks and hard links, (3) a 50 MiB incompressible file, a whiteout
// of a layer-2 file and an opaque directory replacing a layer-2 directory. Layer 3 is stored
// uncompressed so importers exercise both layer media types.
import type { ImageSpec, LayerSpec } from './image';
import { DEFAULT_PATH_ENV, LAYERS3_IMAGE } from './names';
import { pseudoRandomBytes, pseudoRandomText, Xorshift32 } from './prng';
import type { TarEntry } from './tarball';

export const SMALL_FILES_ROOT = 'opt/berth';
export const SMALL_DIR_COUNT = 40;
export const FILES_PER_DIR = 100;
export const BIG_FILE_PATH = 'opt/big/blob.bin';
export const BIG_FILE_SIZE = 50 * 1024 * 1024;

/** What layer 3 does to layer 2, so tests can check the unpacked result. */
export const LAYER3_CHANGES = {
  whitedOut: `${SMALL_FILES_ROOT}/d01/f050.txt`,
  opaqueDir: `${SMALL_FILES_ROOT}/d02`,
  fileInOpaqueDir: `${SMALL_FILES_ROOT}/d02/after-opaque.txt`,
  replacedFile: `${SMALL_FILES_ROOT}/d03/f000.txt`,
  replacedContent: 'replaced in layer 3\n',
} as const;

const dirName = (d: number): string => `${SMALL_FILES_ROOT}/d${String(d).padStart(2, '0')}`;
const fileName = (f: number): string => `f${String(f).padStart(3, '0')}.txt`;

export function smallFilesLayerEntries(): TarEntry[] {
  const sizes = new Xorshift32(0x5eed0002);
  const entries: TarEntry[] = [{ kind: 'dir', path: SMALL_FILES_ROOT, mode: 0o755 }];
  for (let d = 0; d < SMALL_DIR_COUNT; d++) {
    const dir = dirName(d);
    entries.push({ kind: 'dir', path: dir, mode: 0o755 });
    for (let f = 0; f < FILES_PER_DIR; f++) {
      const path = `${dir}/${fileName(f)}`;
      const size = f % 50 === 49 ? 0 : sizes.between(16, 3000);
      const data = pseudoRandomText(d * 1000 + f + 1, size);
      // A few owner and mode variations, so unpacking has to carry them through.
      if (f === 7) entries.push({ kind: 'file', path, mode: 0o600, uid: 1000, gid: 1000, data });
      else if (f === 13) entries.push({ kind: 'file', path, mode: 0o755, data });
      else entries.push({ kind: 'file', path, mode: 0o644, data });
    }
    entries.push(
      { kind: 'symlink', path: `${dir}/rel-link`, target: fileName(0) },
      { kind: 'symlink', path: `${dir}/abs-link`, target: `/${dir}/${fileName(1)}` },
      { kind: 'hardlink', path: `${dir}/hard-f002`, target: `${dir}/${fileName(2)}`, mode: 0o644 },
    );
  }
  entries.push(
    { kind: 'symlink', path: `${SMALL_FILES_ROOT}/latest`, target: 'd39' },
    { kind: 'symlink', path: `${dirName(0)}/dangling`, target: 'does-not-exist' },
    { kind: 'hardlink', path: `${dirName(39)}/hard-from-d00`, target: `${dirName(0)}/${fileName(3)}`, mode: 0o644 },
  );
  return entries;
}

function whiteoutPath(path: string): string {
  const slash = path.lastIndexOf('/');
  return `${path.slice(0, slash)}/.wh.${path.slice(slash + 1)}`;
}

export function bigFileLayerEntries(): TarEntry[] {
  const c = LAYER3_CHANGES;
  return [
    { kind: 'file', path: BIG_FILE_PATH, mode: 0o644, data: pseudoRandomBytes(0x5eed0003, BIG_FILE_SIZE) },
    { kind: 'file', path: whiteoutPath(c.whitedOut), mode: 0o644, data: Buffer.alloc(0) },
    { kind: 'dir', path: c.opaqueDir, mode: 0o755 },
    { kind: 'file', path: `${c.opaqueDir}/.wh..wh..opq`, mode: 0o644, data: Buffer.alloc(0) },
    { kind: 'file', path: c.fileInOpaqueDir, mode: 0o644, data: Buffer.from('only file left in d02\n') },
    { kind: 'file', path: c.replacedFile, mode: 0o644, data: Buffer.from(c.replacedContent) },
  ];
}

export function layers3ImageSpec(busyboxLayer: LayerSpec): ImageSpec {
  return {
    name: LAYERS3_IMAGE,
    layers: [
      busyboxLayer,
      { entries: smallFilesLayerEntries(), compression: 'gzip', createdBy: 'berth hack/images: 4000 small files' },
      { entries: bigFileLayerEntries(), compression: 'none', createdBy: 'berth hack/images: 50 MiB file, whiteout, opaque dir' },
    ],
    config: { Cmd: ['sh'], Env: [DEFAULT_PATH_ENV] },
  };
}

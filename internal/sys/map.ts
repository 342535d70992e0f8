// Files mapped read-only into memory (map.c) instead of read into it: berthd's start-up maps its
// bundle and code cache (2.7 MB) this way, ~1,000 fewer page faults per start (issue 16). Both stay
// valid until garbage collected, so a mapped file must only ever be replaced by rename, never
// rewritten in place (a truncated mapping faults with SIGBUS).
import { loadAddon } from './addon';

interface MapAddon {
  mapLatin1(path: string): string;
  mapBuffer(path: string): Buffer;
}

/** The file's bytes as a one-byte string (an external string over the mapping, no copy). */
export function mapFileLatin1(path: string): string {
  return loadAddon<MapAddon>().mapLatin1(path);
}

/** The file's bytes as a Buffer over a read-only mapping (writing into it crashes the process). */
export function mapFileBuffer(path: string): Buffer {
  return loadAddon<MapAddon>().mapBuffer(path);
}

// A new directory whose parents may not exist yet. Node's recursive mkdir reports ENOENT when a
// parent cannot be made, hiding why (a full disk's ENOSPC, which clients should read as
// RESOURCE_EXHAUSTED): here each missing parent is made on its own, so its own error comes out.
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';

const codeOf = (err: unknown) => (err as NodeJS.ErrnoException).code;

/** Makes `dir` and its missing parents (all with `mode`); one that exists is fine. */
async function ensureDir(dir: string, mode: number): Promise<void> {
  try {
    await mkdir(dir, { mode });
  } catch (err) {
    if (codeOf(err) === 'EEXIST') return;
    if (codeOf(err) !== 'ENOENT' || dirname(dir) === dir) throw err;
    await ensureDir(dirname(dir), mode);
    await mkdir(dir, { mode }).catch((e: unknown) => {
      if (codeOf(e) !== 'EEXIST') throw e;
    });
  }
}

/** Makes `path`, which must not exist, and its missing parents, all with `mode`. */
export async function makeDir(path: string, mode: number): Promise<void> {
  try {
    await mkdir(path, { mode });
  } catch (err) {
    if (codeOf(err) !== 'ENOENT') throw err;
    await ensureDir(dirname(path), mode);
    await mkdir(path, { mode });
  }
}

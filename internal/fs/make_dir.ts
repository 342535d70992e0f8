// A new directory whose parents may not exist yet. Node's recursive mkdir reports ENOENT when a
// parent cannot be made, hiding why (a full disk's ENOSPC, which clients should read as
// RESOURCE_EXHAUSTED): here each missing parent is made on its own, so its own error comes out.
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';

/** Makes `dir` and its missing parents, all with `mode`; `dir` may exist already only if `mayExist`. */
async function makeDirs(dir: string, mode: number, mayExist: boolean): Promise<void> {
  try {
    await mkdir(dir, { mode });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST' && mayExist) return;
    if (code !== 'ENOENT' || dirname(dir) === dir) throw err;
    await makeDirs(dirname(dir), mode, true);
    await makeDirs(dir, mode, mayExist);
  }
}

/** Makes `path`, which must not exist, and its missing parents, all with `mode`. */
export function makeDir(path: string, mode: number): Promise<void> {
  return makeDirs(path, mode, false);
}

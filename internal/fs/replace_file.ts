// Replacing a file whole or not at all: a temp file beside it, then rename over it. A reader that
// has the old file open (or mapped: berthd's bundle) keeps reading the old one, and a failure (a full
// disk) leaves neither a half-written file nor the temp file behind.
import { closeSync, openSync, renameSync, rmSync, writeFileSync } from 'node:fs';

/**
 * Writes `data` (or its parts, one after another: no joined copy of a large file in memory) as
 * `path` by rename; throws what failed, after removing the temp file.
 */
export function replaceFileSync(path: string, data: string | NodeJS.ArrayBufferView | readonly NodeJS.ArrayBufferView[], mode = 0o644): void {
  const tmp = `${path}.${process.pid}.tmp`;
  try {
    const fd = openSync(tmp, 'w', mode);
    try {
      const parts = typeof data === 'string' || ArrayBuffer.isView(data) ? [data] : data;
      for (const part of parts) writeFileSync(fd, part);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, path);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}

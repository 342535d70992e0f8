// Files appear whole or not at all: content goes to a uniquely named temp file beside the target,
// which is renamed over it only after the last byte is written. A build killed midway leaves at
// most a temp file (removed on any error we see), never a truncated archive under the real name.
// No fsync: the guarantee is against killed processes, not power loss, and these are caches.
import { randomBytes } from 'node:crypto';
import { open, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

export function tempPathFor(target: string): string {
  return join(dirname(target), `.${basename(target)}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`);
}

/** True for the temp files `writeFileAtomic` leaves behind when its process is killed. */
export function isTempFileName(name: string): boolean {
  return /^\..*\.tmp-\d+-[0-9a-f]{8}$/.test(name);
}

export async function writeFileAtomic(
  target: string,
  content: Uint8Array | AsyncIterable<Uint8Array>,
  mode = 0o644,
): Promise<void> {
  const temp = tempPathFor(target);
  const handle = await open(temp, 'wx', mode);
  try {
    try {
      if (content instanceof Uint8Array) await handle.writeFile(content);
      else for await (const chunk of content) await handle.write(chunk);
      await handle.chmod(mode); // open's mode is filtered by the umask
    } finally {
      await handle.close();
    }
    await rename(temp, target);
  } catch (err) {
    await unlink(temp).catch(() => undefined);
    throw err;
  }
}

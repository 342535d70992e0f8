// Disk usage of one directory tree: allocated blocks and inodes, hard links counted once.
import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Usage } from '../types';

export async function diskUsage(root: string): Promise<Usage> {
  const seen = new Set<string>();
  let size = 0;
  const visit = async (path: string): Promise<void> => {
    const st = await lstat(path, { bigint: true });
    const inode = `${st.dev}:${st.ino}`;
    if (!seen.has(inode)) {
      seen.add(inode);
      size += Number(st.blocks) * 512;
    }
    if (st.isDirectory()) for (const name of await readdir(path)) await visit(join(path, name));
  };
  await visit(root);
  return { size, inodes: seen.size };
}

// Disk usage of one directory tree: allocated blocks and inodes, hard links counted once. Walked by
// the addon on the thread pool (internal/sys/du.ts): the kubelet has every writable layer measured
// every 10 s, and the same walk in JavaScript held berthd's thread ~70 ms at 110 pods, in stretches
// of 10-17 ms that every call arriving meanwhile waited out (issue 16).
import { treeUsage } from '../../sys/du';
import type { Usage } from '../types';

export async function diskUsage(root: string): Promise<Usage> {
  const { size, inodes } = await treeUsage(root);
  return { size, inodes };
}

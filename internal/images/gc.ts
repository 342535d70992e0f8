// Content GC driven by image records: every blob reachable from a recorded image stays, the rest
// (among `candidates`, or the whole store) goes. Snapshots are the rootfs layer's business.
import type { ManagedContentStore } from '../content/types';
import type { ImageStore } from './store';
import { referencedBlobs } from './walk';

export function collectGarbage(
  content: ManagedContentStore,
  images: ImageStore,
  candidates?: Iterable<string>,
): Promise<string[]> {
  return content.gc(() => referencedBlobs(content, images.list().map((i) => i.target)), candidates);
}

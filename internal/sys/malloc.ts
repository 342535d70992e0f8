// Giving malloc's free memory back to the system (internal/sys/src/malloc.c).
import { loadAddon } from './addon';

interface MallocAddon {
  trimMalloc(): boolean;
}

/** malloc_trim(0) over every arena; true when memory was returned. */
export function trimMalloc(): boolean {
  return loadAddon<MallocAddon>().trimMalloc();
}

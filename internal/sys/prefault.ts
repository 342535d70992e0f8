// The end of berthd's start-up for bin/berthd's page-fault preload (internal/sys/preload/prefault.c):
// from then on memory faults in as it is used, and malloc's unused heap goes back to the system.
import { loadAddon } from './addon';

interface PrefaultAddon {
  prefaultEnd(): boolean;
}

/** Tells the preload start-up is over; false when berthd runs without it (nothing to do). */
export function endStartupPrefault(): boolean {
  return loadAddon<PrefaultAddon>().prefaultEnd();
}

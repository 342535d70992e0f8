// V8's gc() without starting Node with --expose-gc (for the bench client and the jest workers).
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

export type Gc = (options?: { type: 'minor' | 'major' }) => void;

let gc: Gc | undefined;

/** This process's gc(); a full collection when called without options. */
export function v8Gc(): Gc {
  if (gc === undefined) {
    // The documented way to reach it at run time: the flag, then a fresh context's global.
    setFlagsFromString('--expose-gc');
    gc = runInNewContext('gc') as Gc;
  }
  return gc;
}

// How the bundle's loader (bundle_start.ts) learns that the daemon it started is serving: a function
// under a global symbol, which daemon.ts calls once serving. Run from dist/ (tests, no loader) there
// is none, and nothing happens.
const KEY = Symbol.for('berth.berthd.serving');

type Hooked = typeof globalThis & { [KEY]?: () => void };

/** The loader: run `fn` once the daemon serves. */
export function onServing(fn: () => void): void {
  (globalThis as Hooked)[KEY] = fn;
}

/** The daemon: it serves now. */
export function announceServing(): void {
  const fn = (globalThis as Hooked)[KEY];
  delete (globalThis as Hooked)[KEY];
  fn?.();
}

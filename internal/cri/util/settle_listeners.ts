// Waiting on a promise that can stay pending for the life of a container (its task's exit) from a
// call or session that may end first. A reaction added with then() can never be taken back, so each
// such wait held everything its waiter reached (an attach session's streams and socket, ~7 KiB)
// until the container exited. Here a promise gets one reaction, which calls the listeners present
// when it settles, and a waiter that leaves takes its listener out.

interface Listener<T> {
  fulfilled: (value: T) => void;
  rejected: (reason: unknown) => void;
}

const listeners = new WeakMap<Promise<unknown>, Set<Listener<never>>>();

/**
 * The waiters of `promise`, with the one reaction that calls them. Made in a function of its own:
 * a closure keeps its whole scope, so made inside whenSettled the reaction kept the first waiter.
 */
function waitersOf<T>(promise: Promise<T>): Set<Listener<T>> {
  const found = listeners.get(promise) as Set<Listener<T>> | undefined;
  if (found !== undefined) return found;
  const set = new Set<Listener<T>>();
  listeners.set(promise, set as Set<Listener<never>>);
  const settle = (call: (l: Listener<T>) => void) => {
    listeners.delete(promise);
    for (const listener of set) call(listener);
    set.clear();
  };
  promise.then(
    (value) => settle((l) => l.fulfilled(value)),
    (reason: unknown) => settle((l) => l.rejected(reason)),
  );
  return set;
}

/** Calls `fulfilled` or `rejected` once `promise` settles, unless the function returned is called first. */
export function whenSettled<T>(promise: Promise<T>, fulfilled: (value: T) => void, rejected: (reason: unknown) => void): () => void {
  const set = waitersOf(promise);
  const listener: Listener<T> = { fulfilled, rejected };
  set.add(listener);
  return () => void set.delete(listener);
}

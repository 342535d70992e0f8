// The error a synchronous call throws, for asserting on it (`expect(kindOf(thrownBy(() => f()))).toBe(...)`).

/** What `fn` threw; fails the test when it returned instead. */
export function thrownBy(fn: () => unknown): unknown {
  try {
    fn();
  } catch (err) {
    return err;
  }
  throw new Error('expected an error');
}

// A seeded xorshift32 generator: deterministic content for test files, fast enough to fill 50 MiB
// in well under a second because it writes 32-bit words straight into the buffer.

export class Xorshift32 {
  private state: number;

  constructor(seed: number) {
    // xorshift never leaves the all-zero state, so a zero seed is replaced.
    this.state = seed >>> 0 || 0x9e3779b9;
  }

  next(): number {
    let x = this.state;
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    this.state = x;
    return x;
  }

  /** An integer in [min, max]. */
  between(min: number, max: number): number {
    return min + (this.next() % (max - min + 1));
  }
}

/** `size` bytes of seeded pseudo-random data (little-endian words, so same bytes on x86 and arm). */
export function pseudoRandomBytes(seed: number, size: number): Buffer {
  const rng = new Xorshift32(seed);
  const words = Math.ceil(size / 4);
  const backing = new ArrayBuffer(words * 4); // own, aligned memory: pooled Buffers may be unaligned
  const view = new Uint32Array(backing);
  // Uint32Array writes in host byte order; every supported host (x86_64, arm64) is little-endian.
  for (let i = 0; i < words; i++) view[i] = rng.next();
  return Buffer.from(backing, 0, size);
}

/** Printable pseudo-random text of `size` bytes: compressible like real config or source files. */
export function pseudoRandomText(seed: number, size: number): Buffer {
  const rng = new Xorshift32(seed);
  const out = Buffer.allocUnsafe(size);
  const alphabet = 'abcdefghijklmnopqrstuvwxyz      ';
  for (let i = 0; i < size; i++) {
    out[i] = (i + 1) % 64 === 0 ? 0x0a : alphabet.charCodeAt(rng.next() % alphabet.length);
  }
  return out;
}

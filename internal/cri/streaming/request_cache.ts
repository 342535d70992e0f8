// Single-use tokens for streaming URLs, as kubelet's request cache: the CRI Exec/Attach/PortForward
// RPC stores its request under a random token; the client's HTTP request consumes it once, within
// the TTL. Expired entries are dropped lazily and whenever a new one is inserted.
import { randomBytes } from 'node:crypto';
import { resourceExhausted } from '../../errdefs/errors';

interface Entry<T> {
  value: T;
  expiresAt: number;
}

export interface RequestCacheOptions {
  ttlMs: number;
  /** Bound on tokens waiting to be used (kubelet uses 1000). */
  maxInFlight?: number;
  /** Milliseconds clock; tests inject one to expire tokens without waiting. */
  now?: () => number;
}

export class RequestCache<T> {
  private readonly entries = new Map<string, Entry<T>>();
  private readonly ttlMs: number;
  private readonly maxInFlight: number;
  private readonly now: () => number;

  constructor(opts: RequestCacheOptions) {
    this.ttlMs = opts.ttlMs;
    this.maxInFlight = opts.maxInFlight ?? 1000;
    this.now = opts.now ?? Date.now;
  }

  /** Stores `value` and returns its new URL-safe token. */
  insert(value: T): string {
    this.evictExpired();
    if (this.entries.size >= this.maxInFlight) {
      throw resourceExhausted(`too many streaming requests in flight (${this.maxInFlight}); retry later`);
    }
    let token: string;
    do token = randomBytes(16).toString('base64url');
    while (this.entries.has(token));
    this.entries.set(token, { value, expiresAt: this.now() + this.ttlMs });
    return token;
  }

  /** Removes and returns the request for `token`; undefined when unknown, used or expired. */
  consume(token: string): T | undefined {
    const entry = this.entries.get(token);
    if (!entry) return undefined;
    this.entries.delete(token);
    return entry.expiresAt > this.now() ? entry.value : undefined;
  }

  get size(): number {
    return this.entries.size;
  }

  private evictExpired(): void {
    const now = this.now();
    // Map keeps insertion order and every entry has the same TTL: the oldest expire first.
    for (const [token, entry] of this.entries) {
      if (entry.expiresAt > now) break;
      this.entries.delete(token);
    }
  }
}

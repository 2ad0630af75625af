/** Options of an {@link EventSpamFilter}. */
export interface EventSpamFilterOptions {
  /** Events an object may emit at once. Default 25 (client-go's). */
  burst?: number;
  /** Time to regain one token, in ms. Default 300 000, one per 5 min (client-go's). */
  refillIntervalMs?: number;
  /** Objects tracked at most; the least recently seen is forgotten first. Default 4096. */
  maxEntries?: number;
}

interface Bucket {
  tokens: number;
  last: number;
}

/**
 * A token bucket per key (client-go's `EventSourceObjectSpamFilter`): each key starts with
 * `burst` tokens, regains one every `refillIntervalMs`, and each allowed event takes one. Keys
 * are kept in a least-recently-used map of `maxEntries`; a forgotten key starts full again.
 *
 * Assumes: time (epoch or monotonic ms) does not go backwards; if it does, no tokens are
 * added until it passes the last reading again.
 */
export class EventSpamFilter {
  readonly burst: number;
  readonly refillIntervalMs: number;
  readonly maxEntries: number;
  readonly #buckets = new Map<string, Bucket>();

  /** @throws {RangeError} when an option is not a positive number (burst and maxEntries whole). */
  constructor(options: EventSpamFilterOptions = {}) {
    this.burst = options.burst ?? 25;
    this.refillIntervalMs = options.refillIntervalMs ?? 300_000;
    this.maxEntries = options.maxEntries ?? 4096;
    if (!Number.isInteger(this.burst) || this.burst < 1) {
      throw new RangeError(`event rate limit burst must be a whole number >= 1, got ${this.burst}`);
    }
    if (!(this.refillIntervalMs > 0)) {
      throw new RangeError(
        `event rate limit refill interval must be > 0 ms, got ${this.refillIntervalMs}`,
      );
    }
    if (!Number.isInteger(this.maxEntries) || this.maxEntries < 1) {
      throw new RangeError(
        `event rate limit cache size must be a whole number >= 1, got ${this.maxEntries}`,
      );
    }
  }

  /** Takes a token of `key` at time `now` (ms) if it has one; returns whether it had. */
  allow(key: string, now: number): boolean {
    const bucket = this.#buckets.get(key) ?? { tokens: this.burst, last: now };
    this.#buckets.delete(key);
    if (now > bucket.last) {
      bucket.tokens = Math.min(
        this.burst,
        bucket.tokens + (now - bucket.last) / this.refillIntervalMs,
      );
      bucket.last = now;
    }
    this.#buckets.set(key, bucket);
    if (this.#buckets.size > this.maxEntries) {
      const oldest = this.#buckets.keys().next();
      if (!oldest.done) this.#buckets.delete(oldest.value);
    }
    if (bucket.tokens < 1) return false;
    bucket.tokens -= 1;
    return true;
  }

  /** How many keys are tracked. */
  get size(): number {
    return this.#buckets.size;
  }
}

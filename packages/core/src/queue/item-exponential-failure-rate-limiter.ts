import type { RateLimiter } from './rate-limiter.js';

/** 5 ms: controller-runtime's default first retry delay. */
export const defaultBaseDelayMs = 5;
/** 1,000 s: controller-runtime's default cap on a retry delay. */
export const defaultMaxDelayMs = 1_000_000;

/**
 * Per-item exponential backoff: the n-th consecutive failure of an item (counting from 0)
 * waits `baseDelayMs * 2^n`, capped at `maxDelayMs` (client-go's
 * `ItemExponentialFailureRateLimiter`). With the defaults: 5 ms, 10 ms, 20 ms, ... up to
 * 1,000 s, reached at the 19th failure.
 *
 * Guarantees: each item's count is its own; only `when(item)` raises it and only
 * `forget(item)` resets it, so failures of other items never lengthen an item's backoff. The
 * delay never exceeds `maxDelayMs` and never overflows, however many failures. O(1) per call.
 *
 * Assumes: callers `forget` an item when it succeeds, or its count is kept for ever.
 */
export class ItemExponentialFailureRateLimiter<T = string> implements RateLimiter<T> {
  private readonly failures = new Map<T, number>();

  /**
   * @throws {RangeError} when a delay is negative or not a number, or `baseDelayMs` exceeds
   *   `maxDelayMs`.
   */
  constructor(
    readonly baseDelayMs: number = defaultBaseDelayMs,
    readonly maxDelayMs: number = defaultMaxDelayMs,
  ) {
    if (!(baseDelayMs >= 0) || !(maxDelayMs >= 0) || baseDelayMs > maxDelayMs) {
      throw new RangeError(
        `ItemExponentialFailureRateLimiter: invalid delays (base ${baseDelayMs} ms, max ${maxDelayMs} ms); pass 0 <= baseDelayMs <= maxDelayMs`,
      );
    }
  }

  when(item: T): number {
    const exponent = this.failures.get(item) ?? 0;
    this.failures.set(item, exponent + 1);
    // 2^1023 is the largest finite power of two; beyond it the cap applies anyway.
    const backoff = this.baseDelayMs * 2 ** Math.min(exponent, 1023);
    return Math.min(backoff, this.maxDelayMs);
  }

  forget(item: T): void {
    this.failures.delete(item);
  }

  numRequeues(item: T): number {
    return this.failures.get(item) ?? 0;
  }
}

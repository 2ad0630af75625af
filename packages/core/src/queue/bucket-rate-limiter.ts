import { type Clock, realClock } from '../clock/clock.js';
import type { RateLimiter } from './rate-limiter.js';

/**
 * An overall token bucket shared by all items (client-go's `BucketRateLimiter` over
 * `golang.org/x/time/rate`): the bucket holds at most `burst` tokens and refills at `qps`
 * tokens per second; each `when` takes one token, reserving it in advance when the bucket is
 * empty, and returns how long until that token exists.
 *
 * Guarantees: the first `burst` calls in a row wait 0; after that, call k (k > burst) made at
 * the same instant waits `(k - burst) / qps` seconds, so retries leave at no more than `qps`
 * per second on average. Time is read from the injected clock. O(1) per call. The limiter does
 * not track items: `forget` is a no-op and `numRequeues` is always 0.
 *
 * Assumes: the clock does not go backwards (a reading earlier than the last is treated as no
 * time having passed).
 */
export class BucketRateLimiter<T = string> implements RateLimiter<T> {
  private tokens: number;
  private last: number;

  /**
   * @param qps tokens added per second (`Infinity` disables the limit).
   * @param burst the bucket's size, also its initial content.
   * @throws {RangeError} when `qps` is not > 0, or `burst` is not a whole number >= 1.
   */
  constructor(
    readonly qps: number = 10,
    readonly burst: number = 100,
    private readonly clock: Clock = realClock,
  ) {
    if (!(qps > 0)) {
      throw new RangeError(
        `BucketRateLimiter: qps must be > 0 (or Infinity for no limit), got ${qps}`,
      );
    }
    if (!Number.isInteger(burst) || burst < 1) {
      throw new RangeError(`BucketRateLimiter: burst must be a whole number >= 1, got ${burst}`);
    }
    this.tokens = burst;
    this.last = clock.now();
  }

  when(_item: T): number {
    if (this.qps === Number.POSITIVE_INFINITY) return 0;
    const now = this.clock.now();
    if (now > this.last) {
      const refilled = this.tokens + ((now - this.last) * this.qps) / 1000;
      this.tokens = Math.min(refilled, this.burst);
      this.last = now;
    }
    this.tokens -= 1;
    return this.tokens >= 0 ? 0 : (-this.tokens * 1000) / this.qps;
  }

  forget(_item: T): void {}

  numRequeues(_item: T): number {
    return 0;
  }
}

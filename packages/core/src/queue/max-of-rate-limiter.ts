import type { RateLimiter } from './rate-limiter.js';

/**
 * Combines limiters by taking the worst case (client-go's `MaxOfRateLimiter`).
 *
 * Guarantees: `when` asks every limiter, in order (so each records the failure), and returns
 * the longest delay, 0 with no limiters; `numRequeues` is the largest count; `forget` forgets
 * in every limiter. With a token bucket inside, the bucket's burst can appear exceeded when
 * some items were separately delayed longer by another limiter.
 */
export class MaxOfRateLimiter<T = string> implements RateLimiter<T> {
  private readonly limiters: readonly RateLimiter<T>[];

  constructor(...limiters: RateLimiter<T>[]) {
    this.limiters = limiters;
  }

  when(item: T): number {
    let longest = 0;
    for (const limiter of this.limiters) {
      const delay = limiter.when(item);
      if (delay > longest) longest = delay;
    }
    return longest;
  }

  forget(item: T): void {
    for (const limiter of this.limiters) limiter.forget(item);
  }

  numRequeues(item: T): number {
    let most = 0;
    for (const limiter of this.limiters) {
      const count = limiter.numRequeues(item);
      if (count > most) most = count;
    }
    return most;
  }
}

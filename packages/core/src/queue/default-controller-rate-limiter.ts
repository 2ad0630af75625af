import { type Clock, realClock } from '../clock/clock.js';
import { BucketRateLimiter } from './bucket-rate-limiter.js';
import {
  defaultBaseDelayMs,
  defaultMaxDelayMs,
  ItemExponentialFailureRateLimiter,
} from './item-exponential-failure-rate-limiter.js';
import { MaxOfRateLimiter } from './max-of-rate-limiter.js';
import type { RateLimiter } from './rate-limiter.js';

/**
 * The rate limiter of controller-runtime's controllers: the worse of a per-item exponential
 * backoff (5 ms doubling to 1,000 s) and an overall token bucket (10 qps, burst 100).
 *
 * Guarantees: a fresh limiter each call (no state shared between queues); the bucket reads
 * time from `clock`, so pass the queue's clock when testing on fake time.
 */
export function defaultControllerRateLimiter<T = string>(clock: Clock = realClock): RateLimiter<T> {
  return new MaxOfRateLimiter<T>(
    new ItemExponentialFailureRateLimiter<T>(defaultBaseDelayMs, defaultMaxDelayMs),
    new BucketRateLimiter<T>(10, 100, clock),
  );
}

import { describe, expect, it } from 'vitest';
import { FakeClock } from '../clock/fake-clock.js';
import { defaultControllerRateLimiter } from './default-controller-rate-limiter.js';
import { ItemExponentialFailureRateLimiter } from './item-exponential-failure-rate-limiter.js';
import { MaxOfRateLimiter } from './max-of-rate-limiter.js';
import type { RateLimiter } from './rate-limiter.js';

class Fixed implements RateLimiter {
  readonly calls: string[] = [];
  readonly forgotten: string[] = [];
  constructor(
    private readonly delay: number,
    private readonly requeues: number,
  ) {}
  when(item: string): number {
    this.calls.push(item);
    return this.delay;
  }
  forget(item: string): void {
    this.forgotten.push(item);
  }
  numRequeues(): number {
    return this.requeues;
  }
}

describe('MaxOfRateLimiter', () => {
  it('asks every limiter and returns the longest delay and most requeues', () => {
    const a = new Fixed(30, 1);
    const b = new Fixed(70, 4);
    const c = new Fixed(10, 2);
    const limiter = new MaxOfRateLimiter(a, b, c);
    expect(limiter.when('x')).toBe(70);
    expect([a.calls, b.calls, c.calls]).toEqual([['x'], ['x'], ['x']]);
    expect(limiter.numRequeues('x')).toBe(4);
    limiter.forget('x');
    expect([a.forgotten, b.forgotten, c.forgotten]).toEqual([['x'], ['x'], ['x']]);
  });

  it('waits 0 with no limiters', () => {
    const limiter = new MaxOfRateLimiter();
    expect(limiter.when('x')).toBe(0);
    expect(limiter.numRequeues('x')).toBe(0);
  });

  it('combines real limiters', () => {
    const limiter = new MaxOfRateLimiter(
      new ItemExponentialFailureRateLimiter(10, 1000),
      new ItemExponentialFailureRateLimiter(1, 100_000),
    );
    const delays = Array.from({ length: 12 }, () => limiter.when('a'));
    expect(delays.slice(0, 3)).toEqual([10, 20, 40]);
    expect(delays[7]).toBe(1000);
    expect(delays[10]).toBe(1024);
    expect(delays[11]).toBe(2048);
    expect(limiter.numRequeues('a')).toBe(12);
  });
});

describe('defaultControllerRateLimiter', () => {
  it('is the worse of 5 ms exponential backoff and a 10 qps, 100 burst bucket', () => {
    const clock = new FakeClock();
    const limiter = defaultControllerRateLimiter(clock);
    expect([limiter.when('a'), limiter.when('a'), limiter.when('a')]).toEqual([5, 10, 20]);
    for (let i = 0; i < 97; i++) expect(limiter.when(`k${i}`)).toBe(5);
    // The bucket is empty now: a fresh key waits for the bucket, not its own backoff.
    expect(limiter.when('fresh')).toBe(100);
    expect(limiter.numRequeues('a')).toBe(3);
    limiter.forget('a');
    expect(limiter.numRequeues('a')).toBe(0);
  });

  it('gives each call a fresh limiter', () => {
    const clock = new FakeClock();
    const first = defaultControllerRateLimiter(clock);
    first.when('a');
    expect(defaultControllerRateLimiter(clock).numRequeues('a')).toBe(0);
  });
});

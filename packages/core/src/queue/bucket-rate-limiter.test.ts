import { describe, expect, it } from 'vitest';
import { FakeClock } from '../clock/fake-clock.js';
import { BucketRateLimiter } from './bucket-rate-limiter.js';

describe('BucketRateLimiter', () => {
  it('lets a burst through, then spaces calls at 1/qps', () => {
    const clock = new FakeClock();
    const limiter = new BucketRateLimiter(10, 100, clock);
    for (let i = 0; i < 100; i++) expect(limiter.when(`k${i}`)).toBe(0);
    expect(limiter.when('x')).toBe(100);
    expect(limiter.when('y')).toBe(200);
    expect(limiter.when('x')).toBe(300);
  });

  it('refills with time, up to the burst', () => {
    const clock = new FakeClock();
    const limiter = new BucketRateLimiter(10, 100, clock);
    for (let i = 0; i < 102; i++) limiter.when('a');
    clock.advance(1000);
    for (let i = 0; i < 8; i++) expect(limiter.when('a')).toBe(0);
    expect(limiter.when('a')).toBe(100);
    clock.advance(1_000_000);
    for (let i = 0; i < 100; i++) expect(limiter.when('a')).toBe(0);
    expect(limiter.when('a')).toBe(100);
  });

  it('counts partial tokens', () => {
    const clock = new FakeClock();
    const limiter = new BucketRateLimiter(2, 1, clock);
    expect(limiter.when('a')).toBe(0);
    expect(limiter.when('a')).toBe(500);
    clock.advance(250);
    // Half a token came back: the reservation debt is 1.5 tokens, 750 ms.
    expect(limiter.when('a')).toBe(750);
  });

  it('does not track items', () => {
    const limiter = new BucketRateLimiter(10, 1, new FakeClock());
    limiter.when('a');
    limiter.when('a');
    expect(limiter.numRequeues('a')).toBe(0);
    limiter.forget('a');
    expect(limiter.when('b')).toBe(200);
  });

  it('does not limit at infinite qps', () => {
    const limiter = new BucketRateLimiter(Number.POSITIVE_INFINITY, 1, new FakeClock());
    for (let i = 0; i < 1000; i++) expect(limiter.when('a')).toBe(0);
  });

  it('uses 10 qps and a burst of 100 by default', () => {
    const limiter = new BucketRateLimiter();
    expect(limiter.qps).toBe(10);
    expect(limiter.burst).toBe(100);
  });

  it('rejects a bad rate or burst', () => {
    expect(() => new BucketRateLimiter(0, 10)).toThrowError(/qps/);
    expect(() => new BucketRateLimiter(Number.NaN, 10)).toThrowError(RangeError);
    expect(() => new BucketRateLimiter(10, 0)).toThrowError(/burst/);
    expect(() => new BucketRateLimiter(10, 1.5)).toThrowError(RangeError);
  });
});

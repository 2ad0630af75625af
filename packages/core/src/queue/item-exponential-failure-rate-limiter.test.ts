import { describe, expect, it } from 'vitest';
import { ItemExponentialFailureRateLimiter } from './item-exponential-failure-rate-limiter.js';

describe('ItemExponentialFailureRateLimiter', () => {
  it('doubles from 5 ms up to the 1,000 s cap by default', () => {
    const limiter = new ItemExponentialFailureRateLimiter();
    const delays = Array.from({ length: 25 }, () => limiter.when('a'));
    expect(delays.slice(0, 5)).toEqual([5, 10, 20, 40, 80]);
    const expected = Array.from({ length: 25 }, (_, i) => Math.min(5 * 2 ** i, 1_000_000));
    expect(delays).toEqual(expected);
    expect(delays[17]).toBe(655_360);
    expect(delays[18]).toBe(1_000_000);
    expect(limiter.numRequeues('a')).toBe(25);
  });

  it('forget resets an item to the base delay', () => {
    const limiter = new ItemExponentialFailureRateLimiter();
    limiter.when('a');
    limiter.when('a');
    limiter.when('a');
    limiter.forget('a');
    expect(limiter.numRequeues('a')).toBe(0);
    expect(limiter.when('a')).toBe(5);
    expect(limiter.numRequeues('a')).toBe(1);
  });

  it('keeps each item on its own count', () => {
    const limiter = new ItemExponentialFailureRateLimiter();
    for (let i = 0; i < 6; i++) limiter.when('a');
    expect(limiter.when('b')).toBe(5);
    expect(limiter.numRequeues('b')).toBe(1);
    limiter.forget('b');
    expect(limiter.when('a')).toBe(320);
    expect(limiter.numRequeues('a')).toBe(7);
  });

  it('compares object items by identity', () => {
    const limiter = new ItemExponentialFailureRateLimiter<object>();
    const a = { key: 'x' };
    limiter.when(a);
    expect(limiter.numRequeues(a)).toBe(1);
    expect(limiter.numRequeues({ key: 'x' })).toBe(0);
  });

  it('takes custom delays and never overflows the cap', () => {
    const limiter = new ItemExponentialFailureRateLimiter(1, 1000);
    expect([limiter.when('a'), limiter.when('a'), limiter.when('a')]).toEqual([1, 2, 4]);
    for (let i = 0; i < 2000; i++) limiter.when('a');
    expect(limiter.when('a')).toBe(1000);
    const zero = new ItemExponentialFailureRateLimiter(0, 10);
    for (let i = 0; i < 1100; i++) expect(zero.when('a')).toBe(0);
  });

  it('rejects impossible delays', () => {
    expect(() => new ItemExponentialFailureRateLimiter(-1, 10)).toThrowError(RangeError);
    expect(() => new ItemExponentialFailureRateLimiter(10, 5)).toThrowError(/baseDelayMs/);
    expect(() => new ItemExponentialFailureRateLimiter(Number.NaN, 5)).toThrowError(RangeError);
  });
});

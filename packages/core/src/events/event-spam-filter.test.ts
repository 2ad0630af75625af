import { describe, expect, it } from 'vitest';
import { EventSpamFilter } from './event-spam-filter.js';

describe('EventSpamFilter', () => {
  it('allows a burst per key, then refills one token per interval', () => {
    const filter = new EventSpamFilter({ burst: 3, refillIntervalMs: 1000 });
    expect([1, 2, 3, 4].map(() => filter.allow('a', 0))).toEqual([true, true, true, false]);
    expect(filter.allow('b', 0)).toBe(true);
    expect(filter.allow('a', 999)).toBe(false);
    expect(filter.allow('a', 1000)).toBe(true);
    expect(filter.allow('a', 1000)).toBe(false);
    // Refills never exceed the burst.
    expect([1, 2, 3, 4].map(() => filter.allow('a', 1_000_000))).toEqual([true, true, true, false]);
  });

  it('uses client-go defaults and forgets the least recently used key', () => {
    const defaults = new EventSpamFilter();
    expect([defaults.burst, defaults.refillIntervalMs, defaults.maxEntries]).toEqual([
      25, 300_000, 4096,
    ]);
    const filter = new EventSpamFilter({ burst: 1, maxEntries: 2 });
    filter.allow('a', 0);
    filter.allow('b', 0);
    filter.allow('a', 0);
    filter.allow('c', 0);
    expect(filter.size).toBe(2);
    // 'b' was forgotten and starts full again; 'a' was kept and is empty.
    expect(filter.allow('b', 0)).toBe(true);
    expect(filter.allow('c', 0)).toBe(false);
  });

  it('adds nothing when time goes backwards', () => {
    const filter = new EventSpamFilter({ burst: 1, refillIntervalMs: 10 });
    expect(filter.allow('a', 100)).toBe(true);
    expect(filter.allow('a', 50)).toBe(false);
    expect(filter.allow('a', 109)).toBe(false);
    expect(filter.allow('a', 110)).toBe(true);
  });

  it('rejects nonsensical limits', () => {
    expect(() => new EventSpamFilter({ burst: 1.5 })).toThrowError(/burst must be a whole number/);
    expect(() => new EventSpamFilter({ refillIntervalMs: 0 })).toThrowError(/refill interval/);
    expect(() => new EventSpamFilter({ maxEntries: 0 })).toThrowError(/cache size/);
  });
});

import { describe, expect, it } from 'vitest';
import { FakeClock } from '../clock/fake-clock.js';
import { Backoff } from './backoff.js';

describe('Backoff', () => {
  it('doubles from 800 ms to a 30 s cap with the defaults (no jitter when random is 0)', () => {
    const backoff = new Backoff({}, new FakeClock(), () => 0);
    const delays = Array.from({ length: 8 }, () => backoff.next());
    expect(delays).toEqual([800, 1600, 3200, 6400, 12_800, 25_600, 30_000, 30_000]);
  });

  it('jitters each delay down by at most the jitter fraction', () => {
    const backoff = new Backoff({ initialMs: 1000, jitter: 0.5 }, new FakeClock(), () => 0.999);
    expect(backoff.next()).toBeCloseTo(500.5, 1);
    expect(backoff.next()).toBeCloseTo(1001, 0);
  });

  it('starts over after a quiet period, and on reset()', () => {
    const clock = new FakeClock();
    const backoff = new Backoff({ initialMs: 100, resetAfterMs: 1_000 }, clock, () => 0);
    expect([backoff.next(), backoff.next(), backoff.next()]).toEqual([100, 200, 400]);
    clock.advance(999);
    expect(backoff.next()).toBe(800);
    clock.advance(1_001);
    expect(backoff.next()).toBe(100);
    backoff.next();
    backoff.reset();
    expect(backoff.next()).toBe(100);
  });
});

import { describe, expect, it } from 'vitest';
import { median, percentile, ratio } from './stats.js';

describe('stats', () => {
  it('takes medians of odd and even sample counts by nearest rank', () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2);
    expect(median([])).toBeNaN();
  });

  it('takes percentiles by nearest rank', () => {
    const samples = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(samples, 50)).toBe(50);
    expect(percentile(samples, 99)).toBe(99);
    expect(percentile(samples, 100)).toBe(100);
    expect(percentile(samples, 0)).toBe(1);
    expect(percentile([7], 99)).toBe(7);
  });

  it('gives NaN ratios rather than infinities', () => {
    expect(ratio(3, 2)).toBe(1.5);
    expect(ratio(1, 0)).toBeNaN();
    expect(ratio(Number.NaN, 1)).toBeNaN();
  });
});

import { describe, expect, it } from 'vitest';
import { formatGoDuration, formatGoTime } from './go-time-format.js';

describe('formatGoTime', () => {
  it('formats metav1.Time as RFC 3339 whole seconds in UTC', () => {
    expect(formatGoTime(0n, 0, false)).toBe('1970-01-01T00:00:00Z');
    expect(formatGoTime(1136214245n, 999_999_999, false)).toBe('2006-01-02T15:04:05Z');
    expect(formatGoTime(-62135596800n, 0, false)).toBe('0001-01-01T00:00:00Z');
    expect(formatGoTime(253402300799n, 0, false)).toBe('9999-12-31T23:59:59Z');
  });

  it('formats metav1.MicroTime with six fractional digits', () => {
    expect(formatGoTime(1136214245n, 123_456_789, true)).toBe('2006-01-02T15:04:05.123456Z');
    expect(formatGoTime(1136214245n, 0, true)).toBe('2006-01-02T15:04:05.000000Z');
  });

  it('refuses instants Go cannot write as JSON', () => {
    expect(formatGoTime(-62135596801n, 0, false)).toBeUndefined();
    expect(formatGoTime(253402300800n, 0, false)).toBeUndefined();
    expect(formatGoTime(0n, -1, false)).toBeUndefined();
    expect(formatGoTime(0n, 1_000_000_000, false)).toBeUndefined();
  });
});

describe('formatGoDuration', () => {
  it.each([
    [0n, '0s'],
    [1n, '1ns'],
    [1500n, '1.5µs'],
    [250_000_000n, '250ms'],
    [1_000_000_000n, '1s'],
    [90_500_000_000n, '1m30.5s'],
    [3_600_000_000_000n, '1h0m0s'],
    [-123_000_000_000n, '-2m3s'],
    [2n ** 63n - 1n, '2562047h47m16.854775807s'],
    [-(2n ** 63n), '-2562047h47m16.854775808s'],
  ])('%s ns is %s', (nanoseconds, text) => {
    expect(formatGoDuration(nanoseconds)).toBe(text);
  });
});

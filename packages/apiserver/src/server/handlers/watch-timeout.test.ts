import { describe, expect, it } from 'vitest';
import { maxWatchTimeoutSeconds, watchTimeoutMs } from './watch-timeout.js';

describe('watchTimeoutMs', () => {
  it('uses a positive timeoutSeconds as given', () => {
    expect(watchTimeoutMs('30', 1800, () => 0.5)).toBe(30_000);
  });

  it('picks a random time between the minimum request timeout and twice it for 0 or none', () => {
    expect(watchTimeoutMs(null, 1800, () => 0)).toBe(1_800_000);
    expect(watchTimeoutMs('0', 1800, () => 0.5)).toBe(2_700_000);
    expect(watchTimeoutMs('', 1800, () => 0.999)).toBe(3_598_200);
  });

  it('caps huge values at what a timer can hold, never overflowing into an instant end', () => {
    expect(maxWatchTimeoutSeconds * 1000).toBeLessThanOrEqual(2 ** 31 - 1);
    expect(watchTimeoutMs('99999999999', 1800)).toBe(maxWatchTimeoutSeconds * 1000);
    expect(watchTimeoutMs(null, 10 ** 9, () => 0)).toBe(maxWatchTimeoutSeconds * 1000);
  });

  it('ends at once for a negative value, as kube-apiserver, and refuses a non-integer', () => {
    expect(watchTimeoutMs('-5', 1800)).toBe(0);
    for (const value of ['abc', '2.5', '1e400'])
      expect(() => watchTimeoutMs(value, 1800)).toThrow(
        `timeoutSeconds: Invalid value: "${value}": must be an integer number of seconds`,
      );
  });
});

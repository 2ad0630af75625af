import { describe, expect, it } from 'vitest';
import { parseSizes } from './parse-sizes.js';

describe('parseSizes', () => {
  it('reads comma-separated sizes, ascending and without repeats', () => {
    expect(parseSizes('100000, 10_000,50000,10000')).toEqual([10_000, 50_000, 100_000]);
  });

  it('names the part that is not a whole number >= 1', () => {
    expect(() => parseSizes('10000,1e3.5')).toThrow('"1e3.5" is not one');
    expect(() => parseSizes('0')).toThrow('"0" is not one');
    expect(() => parseSizes(',')).toThrow('--sizes needs at least one number');
    expect(() => parseSizes('1,x', '--shard-replicas')).toThrow(
      '--shard-replicas takes whole numbers >= 1 separated by commas; "x" is not one',
    );
  });
});

import { describe, expect, it } from 'vitest';
import { queryBool } from './query-bool.js';

describe('queryBool', () => {
  it('is false only when absent, 0 or false in any case (the first value counts)', () => {
    const read = (query: string) => queryBool(new URLSearchParams(query), 'watch');
    expect(read('')).toBe(false);
    expect(
      ['watch=0', 'watch=false', 'watch=FALSE', 'watch=fAlSe', 'watch=0&watch=1'].map(read),
    ).toEqual([false, false, false, false, false]);
    expect(
      ['watch=1', 'watch=True', 'watch=t', 'watch=', 'watch=yes', 'watch=1&watch=0'].map(read),
    ).toEqual([true, true, true, true, true, true]);
  });
});

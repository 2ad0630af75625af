import { describe, expect, it } from 'vitest';
import { maxNestingDepth, nestingDepth } from './nesting-depth.js';

describe('nestingDepth', () => {
  it('counts objects and arrays as levels, scalars as none', () => {
    expect(nestingDepth('x')).toBe(0);
    expect(nestingDepth({})).toBe(1);
    expect(nestingDepth({ a: [1, { b: null }] })).toBe(3);
  });

  it('measures far deeper values than the stack allows, stopping early past a limit', () => {
    const value = JSON.parse(`${'['.repeat(200_000)}${']'.repeat(200_000)}`);
    expect(nestingDepth(value)).toBe(200_000);
    expect(nestingDepth(value, maxNestingDepth)).toBe(maxNestingDepth + 1);
  });
});

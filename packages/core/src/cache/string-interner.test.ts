import { describe, expect, it } from 'vitest';
import { maxInternedLength, StringInterner } from './string-interner.js';

describe('StringInterner', () => {
  it('keeps values equal, in objects and arrays, and leaves long strings alone', () => {
    const interner = new StringInterner();
    const long = 'x'.repeat(maxInternedLength + 1);
    const object = {
      a: 'nginx:1.22',
      b: ['web', { c: 'web' }],
      d: 3,
      e: null,
      f: long,
      g: { h: true },
    };
    const copy = structuredClone(object);
    expect(interner.intern(object)).toEqual(copy);
  });

  it('shares one copy of repeated values across objects', () => {
    const interner = new StringInterner();
    const first = interner.intern(JSON.parse('{"image":"nginx:1.22","labels":["app"]}'));
    const second = interner.intern(JSON.parse('{"image":"nginx:1.22","labels":["app"]}'));
    // Equal strings are equal whether shared or not; sharing is visible through the table size.
    expect(second.image).toBe(first.image);
    expect((interner as unknown as { table: Map<string, string> }).table.size).toBe(2);
  });

  it('starts its table over when it is full', () => {
    const interner = new StringInterner(2);
    interner.intern({ a: '1', b: '2', c: '3' });
    expect((interner as unknown as { table: Map<string, string> }).table.size).toBe(1);
  });
});

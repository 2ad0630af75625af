import { describe, expect, it } from 'vitest';
import { shareUnchangedStrings } from './share-unchanged-strings.js';

/**
 * A deep copy made as the informer gets objects: by JSON.parse, so every string is a copy of
 * its own. (JS compares strings by value, so which copy ends up in place cannot be observed
 * here; the memory it saves is measured by tools/bench. These tests pin that nothing but the
 * copies changes.)
 */
function parsed<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

describe('shareUnchangedStrings', () => {
  const previous = {
    metadata: {
      name: 'cm-1',
      resourceVersion: '10',
      labels: { app: 'web', tier: 'api' },
      annotations: { seq: '1' },
    },
    data: { a: 'x'.repeat(100), list: ['one', 'two', { deep: 'three' }] },
  };

  it('keeps every value and the shape of the new version', () => {
    const next = parsed(previous);
    next.metadata.resourceVersion = '11';
    next.metadata.annotations.seq = '2';
    const expected = parsed(next);
    expect(shareUnchangedStrings(previous, next)).toBe(next);
    expect(next).toEqual(expected);
    expect(Object.keys(next.metadata)).toEqual(Object.keys(expected.metadata));
  });

  it('leaves the previous version as it was', () => {
    const before = parsed(previous);
    const next = parsed(previous);
    next.data.list = ['zero'];
    shareUnchangedStrings(previous, next);
    expect(previous).toEqual(before);
  });

  it('copes with fields added, removed or changed in type, and arrays of other lengths', () => {
    const next = {
      metadata: { name: 'cm-1', labels: 'not-an-object', extra: { name: 'cm-1' } },
      data: { a: ['now', 'an', 'array'], list: ['one', 'two', { deep: 'three' }, 'four'] },
      spec: [1, null, 'x'],
    };
    const expected = parsed(next);
    shareUnchangedStrings(previous, next);
    expect(next).toEqual(expected);
    expect(shareUnchangedStrings(undefined, { a: 'b' })).toEqual({ a: 'b' });
    expect(shareUnchangedStrings(['a'], { 0: 'a' })).toEqual({ 0: 'a' });
    expect(shareUnchangedStrings({ 0: 'a' }, ['a'])).toEqual(['a']);
  });

  it('does not read inherited properties of the previous version', () => {
    const next = { toString: 'text', constructor: { name: 'x' } };
    shareUnchangedStrings({}, next);
    expect(next).toEqual({ toString: 'text', constructor: { name: 'x' } });
  });

  it('treats a "__proto__" key of parsed JSON as data, never as the prototype', () => {
    const old = JSON.parse('{"__proto__":{"a":"b"},"x":"y"}') as Record<string, unknown>;
    const next = JSON.parse('{"__proto__":{"a":"b"},"x":"y"}') as Record<string, unknown>;
    shareUnchangedStrings(old, next);
    expect(Object.getPrototypeOf(next)).toBe(Object.prototype);
    expect(Object.hasOwn(next, '__proto__')).toBe(true);
    expect(JSON.stringify(next)).toBe('{"__proto__":{"a":"b"},"x":"y"}');
  });
});

import { describe, expect, it } from 'vitest';
import { maxInternedLength, StringInterner } from './string-interner.js';

/** A ConfigMap as `JSON.parse` leaves it: every string value its own copy. */
function parsedConfigMap(name: string, release: string): Record<string, unknown> {
  return JSON.parse(
    JSON.stringify({
      metadata: {
        name,
        namespace: 'storefront-production',
        uid: `uid-of-${name}-0000-0000-000000000000`,
        resourceVersion: `1000${name.length}`,
        labels: {
          'app.kubernetes.io/instance': release,
          'app.kubernetes.io/part-of': 'storefront',
        },
      },
      data: { 'logback.xml': '<configuration><root level="INFO"/></configuration>' },
    }),
  ) as Record<string, unknown>;
}

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
    interner.intern(structuredClone(object));
    // Only the short strings are shared; the long one was never looked up.
    expect(interner.counts()).toEqual({ shared: 2, candidates: 0 });
  });

  it('shares label values and data seen in two objects, not the per-object identifiers', () => {
    const interner = new StringInterner();
    const first = interner.intern(parsedConfigMap('storefront-config-1', 'storefront-12'));
    const second = interner.intern(parsedConfigMap('storefront-config-2', 'storefront-12'));
    expect(second).toEqual(parsedConfigMap('storefront-config-2', 'storefront-12'));
    expect(first.metadata).toMatchObject({
      labels: { 'app.kubernetes.io/instance': 'storefront-12' },
    });
    // Shared: the namespace, both label values and the data value. Name, uid and
    // resourceVersion are never looked up, so they are not even candidates.
    expect(interner.counts()).toEqual({ shared: 4, candidates: 0 });
  });

  it('keeps a string seen in one object only as a candidate, forgotten after a list', () => {
    const interner = new StringInterner();
    interner.intern({ a: 'unique-to-the-first-object', b: 'in-both-objects' });
    interner.intern({ a: 'unique-to-the-second-object', b: 'in-both-objects' });
    expect(interner.counts()).toEqual({ shared: 1, candidates: 2 });
    interner.forgetCandidates();
    expect(interner.counts()).toEqual({ shared: 1, candidates: 0 });
    // A value that repeats only inside one object is not worth a table entry.
    interner.intern({ podIP: '10.244.17.203-x', podIPs: [{ ip: '10.244.17.203-x' }] });
    expect(interner.counts()).toEqual({ shared: 1, candidates: 1 });
  });

  it('starts its table and its candidates over when they are full', () => {
    const interner = new StringInterner(2);
    interner.intern({ a: '1', b: '2', c: '3' });
    expect(interner.counts()).toEqual({ shared: 0, candidates: 1 });
    for (const value of ['1', '2', '3']) interner.intern({ a: value });
    expect(interner.counts().shared).toBeLessThanOrEqual(2);
  });

  it('honours a custom length limit', () => {
    const interner = new StringInterner(10, 4);
    interner.intern({ a: 'abcd', b: 'abcde' });
    interner.intern({ a: 'abcd', b: 'abcde' });
    expect(interner.counts()).toEqual({ shared: 1, candidates: 0 });
  });

  it('rejects bounds that are not positive integers, naming them', () => {
    expect(() => new StringInterner(0)).toThrow(/maxEntries must be a positive integer, got 0/);
    expect(() => new StringInterner(10, 1.5)).toThrow(/maxLength must be a positive integer/);
  });
});

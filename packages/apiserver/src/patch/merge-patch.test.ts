import { describe, expect, it } from 'vitest';
import { StatusError } from '../api/status-error.js';
import { applyMergePatch } from './merge-patch.js';

function statusOf(run: () => unknown): StatusError {
  try {
    run();
  } catch (error) {
    if (StatusError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a StatusError');
}

describe('applyMergePatch', () => {
  // RFC 7386, appendix A: every example whose target and patch are objects.
  it.each([
    [{ a: 'b' }, { a: 'c' }, { a: 'c' }],
    [{ a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
    [{ a: 'b' }, { a: null }, {}],
    [{ a: 'b', b: 'c' }, { a: null }, { b: 'c' }],
    [{ a: ['b'] }, { a: 'c' }, { a: 'c' }],
    [{ a: 'c' }, { a: ['b'] }, { a: ['b'] }],
    [{ a: { b: 'c' } }, { a: { b: 'd', c: null } }, { a: { b: 'd' } }],
    [{ a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
    [{ e: null }, { a: 1 }, { e: null, a: 1 }],
    [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
  ])('RFC 7386: %j patched with %j gives %j', (target, patch, result) => {
    expect(applyMergePatch(target, patch)).toEqual(result);
  });

  it('merges nested objects of a Kubernetes object and replaces its lists', () => {
    const deployment = {
      metadata: { name: 'web', labels: { app: 'web', tier: 'front' } },
      spec: { replicas: 1, template: { spec: { containers: [{ name: 'a', image: 'x' }] } } },
    };
    const result = applyMergePatch(deployment, {
      metadata: { labels: { tier: null, team: 'ops' } },
      spec: { replicas: 3, template: { spec: { containers: [{ name: 'b', image: 'y' }] } } },
    });
    expect(result).toEqual({
      metadata: { name: 'web', labels: { app: 'web', team: 'ops' } },
      spec: { replicas: 3, template: { spec: { containers: [{ name: 'b', image: 'y' }] } } },
    });
  });

  it('modifies neither input and shares nothing with them', () => {
    const target = { a: { b: 1 }, list: [1, 2] };
    const patch = { a: { c: { d: 2 } }, list: [3] };
    const snapshot = structuredClone({ target, patch });
    const result = applyMergePatch(target, patch);
    expect({ target, patch }).toEqual(snapshot);
    (result.a as { c: { d: number } }).c.d = 99;
    (result.list as number[]).push(4);
    expect(patch).toEqual(snapshot.patch);
  });

  it('stores a __proto__ member as data, never as the prototype', () => {
    const result = applyMergePatch({}, JSON.parse('{"__proto__": {"polluted": true}}'));
    expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
    expect(Object.hasOwn(result, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it.each([null, 'text', 42, true])('answers 400 Invalid JSON Patch to the patch %j', (patch) => {
    const error = statusOf(() => applyMergePatch({ a: 1 }, patch));
    expect(error.code).toBe(400);
    expect(error.reason).toBe('BadRequest');
    expect(error.message).toBe('Invalid JSON Patch');
  });

  it('answers 422 on the field patch to an array, which cannot become an object', () => {
    const error = statusOf(() => applyMergePatch({ a: 1 }, ['c']));
    expect(error.code).toBe(422);
    expect(error.reason).toBe('Invalid');
    expect(error.details?.causes?.[0]?.field).toBe('patch');
  });
});

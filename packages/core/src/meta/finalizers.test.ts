import type { KubernetesObject } from '@ops/api';
import jsonPatch from 'fast-json-patch';
import { describe, expect, it } from 'vitest';
import { FinalizerError } from '../errors/finalizer-error.js';
import {
  addFinalizer,
  addFinalizerPatch,
  type FinalizerPatchOperation,
  hasFinalizer,
  removeFinalizer,
  removeFinalizerPatch,
  validateFinalizerName,
} from './finalizers.js';

const mine = 'example.com/cleanup';

function stored(finalizers?: string[], resourceVersion = '100'): KubernetesObject {
  return {
    apiVersion: 'example.com/v1',
    kind: 'Database',
    metadata: {
      name: 'db',
      namespace: 'default',
      resourceVersion,
      ...(finalizers === undefined ? {} : { finalizers }),
    },
    spec: { size: 1 },
  };
}

/** Applies `operations` to a copy of `server` as the API server would (all or nothing). */
function apply(server: KubernetesObject, operations: FinalizerPatchOperation[]): KubernetesObject {
  return jsonPatch.applyPatch(structuredClone(server), operations as jsonPatch.Operation[], true)
    .newDocument;
}

function failsTest(server: KubernetesObject, operations: FinalizerPatchOperation[]): boolean {
  try {
    apply(server, operations);
  } catch (error) {
    if (error instanceof jsonPatch.JsonPatchError) return error.name === 'TEST_OPERATION_FAILED';
    throw error;
  }
  return false;
}

function reasonOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    if (FinalizerError.isInstance(error)) return error.reason;
    throw error;
  }
  return undefined;
}

describe('in-place finalizer helpers', () => {
  it('adds once, keeps others, and reports whether anything changed', () => {
    const object = stored(['other.io/keep']);
    expect(addFinalizer(object, mine)).toBe(true);
    expect(addFinalizer(object, mine)).toBe(false);
    expect(object.metadata?.finalizers).toEqual(['other.io/keep', mine]);
    expect(hasFinalizer(object, mine)).toBe(true);
  });

  it('adds to an object without metadata', () => {
    const object: KubernetesObject = {};
    expect(addFinalizer(object, mine)).toBe(true);
    expect(object.metadata?.finalizers).toEqual([mine]);
  });

  it('removes every copy and keeps the order of the others', () => {
    const object = stored(['a.io/x', mine, 'b.io/y', mine]);
    expect(removeFinalizer(object, mine)).toBe(true);
    expect(object.metadata?.finalizers).toEqual(['a.io/x', 'b.io/y']);
    expect(removeFinalizer(object, mine)).toBe(false);
    expect(removeFinalizer({}, mine)).toBe(false);
    expect(hasFinalizer({}, mine)).toBe(false);
  });

  it('rejects names that are not qualified names, saying what is wrong', () => {
    expect(validateFinalizerName(mine)).toEqual([]);
    expect(validateFinalizerName('Bad_Domain/x')[0]).toMatch(/prefix part/);
    const object = stored([]);
    expect(reasonOf(() => addFinalizer(object, 'has space'))).toBe('InvalidFinalizer');
    expect(() => addFinalizer(object, 'a/b/c')).toThrowError(
      /invalid finalizer name "a\/b\/c": a qualified name must consist of .*example\.com\/cleanup/,
    );
    expect(() => removeFinalizer(object, '-x')).toThrowError(/name part must consist/);
    expect(object.metadata?.finalizers).toEqual([]);
    try {
      addFinalizer(object, '');
    } catch (error) {
      expect(FinalizerError.isInstance(error)).toBe(true);
      expect((error as FinalizerError).finalizer).toBe('');
    }
    expect.assertions(8);
  });
});

describe('addFinalizerPatch', () => {
  it('appends after a test of the list as read', () => {
    const read = stored(['other.io/keep']);
    const patch = addFinalizerPatch(read, mine);
    expect(patch).toEqual([
      { op: 'test', path: '/metadata/finalizers', value: ['other.io/keep'] },
      { op: 'add', path: '/metadata/finalizers/-', value: mine },
    ]);
    const result = apply(read, patch);
    expect(result.metadata?.finalizers).toEqual(['other.io/keep', mine]);
    expect(result.spec).toEqual({ size: 1 });
  });

  it('fails instead of clobbering a finalizer added concurrently', () => {
    const read = stored(['other.io/keep']);
    const patch = addFinalizerPatch(read, mine);
    const server = stored(['other.io/keep', 'third.io/new'], '101');
    expect(failsTest(server, patch)).toBe(true);
    // ...and fails when someone added the very same finalizer meanwhile (no duplicate).
    expect(failsTest(stored(['other.io/keep', mine], '101'), patch)).toBe(true);
  });

  it('guards the first finalizer with the resourceVersion', () => {
    const read = stored(undefined, '42');
    const patch = addFinalizerPatch(read, mine);
    expect(patch).toEqual([
      { op: 'test', path: '/metadata/resourceVersion', value: '42' },
      { op: 'add', path: '/metadata/finalizers', value: [mine] },
    ]);
    expect(apply(read, patch).metadata?.finalizers).toEqual([mine]);
    // Another controller added its finalizer meanwhile: `add` would replace the list.
    expect(failsTest(stored(['other.io/first'], '43'), patch)).toBe(true);
  });

  it('treats an empty list as absent (the API server omits it)', () => {
    const read = stored([], '7');
    const patch = addFinalizerPatch(read, mine);
    expect(patch[0]).toEqual({ op: 'test', path: '/metadata/resourceVersion', value: '7' });
    expect(apply(stored(undefined, '7'), patch).metadata?.finalizers).toEqual([mine]);
  });

  it('optionally tests the resourceVersion too', () => {
    const read = stored(['other.io/keep'], '5');
    const patch = addFinalizerPatch(read, mine, { testResourceVersion: true });
    expect(patch[0]).toEqual({ op: 'test', path: '/metadata/resourceVersion', value: '5' });
    expect(apply(read, patch).metadata?.finalizers).toEqual(['other.io/keep', mine]);
    // An unrelated concurrent write (same finalizers, new resourceVersion) now fails it.
    expect(failsTest(stored(['other.io/keep'], '6'), patch)).toBe(true);
    expect(failsTest(stored(['other.io/keep'], '6'), addFinalizerPatch(read, mine))).toBe(false);
  });

  it('is empty when the finalizer is already there, and does not modify the object', () => {
    const read = stored([mine]);
    const before = structuredClone(read);
    expect(addFinalizerPatch(read, mine)).toEqual([]);
    addFinalizerPatch(stored(['x.io/y']), mine);
    expect(read).toEqual(before);
  });

  it('refuses what it cannot guard or what the server would reject', () => {
    const local: KubernetesObject = { kind: 'Database', metadata: { name: 'db' } };
    expect(reasonOf(() => addFinalizerPatch(local, mine))).toBe('MissingResourceVersion');
    expect(() => addFinalizerPatch(local, mine)).toThrowError(/read from the API server/);
    expect(
      reasonOf(() => addFinalizerPatch(stored(['x.io/y']), mine, { testResourceVersion: true })),
    ).toBeUndefined();
    const deleting = stored(['x.io/y']);
    if (deleting.metadata) deleting.metadata.deletionTimestamp = '2024-01-01T00:00:00Z';
    expect(reasonOf(() => addFinalizerPatch(deleting, mine))).toBe('ObjectDeleting');
    expect(reasonOf(() => addFinalizerPatch(stored(), 'not valid!'))).toBe('InvalidFinalizer');
  });
});

describe('removeFinalizerPatch', () => {
  it('tests the element at its index before removing it, keeping the others', () => {
    const read = stored(['a.io/x', mine, 'b.io/y']);
    const patch = removeFinalizerPatch(read, mine);
    expect(patch).toEqual([
      { op: 'test', path: '/metadata/finalizers/1', value: mine },
      { op: 'remove', path: '/metadata/finalizers/1' },
    ]);
    expect(apply(read, patch).metadata?.finalizers).toEqual(['a.io/x', 'b.io/y']);
  });

  it('fails when a concurrent change moved the finalizer', () => {
    const read = stored(['a.io/x', mine, 'b.io/y']);
    const patch = removeFinalizerPatch(read, mine);
    // 'a.io/x' was removed meanwhile: index 1 now holds 'b.io/y', which must not be removed.
    const server = stored([mine, 'b.io/y'], '101');
    expect(failsTest(server, patch)).toBe(true);
    // Appending concurrently is harmless: the index still holds our finalizer.
    const appended = apply(stored(['a.io/x', mine, 'b.io/y', 'c.io/z'], '101'), patch);
    expect(appended.metadata?.finalizers).toEqual(['a.io/x', 'b.io/y', 'c.io/z']);
  });

  it('removes every copy, last first, so that indexes stay valid', () => {
    const read = stored([mine, 'a.io/x', mine]);
    const patch = removeFinalizerPatch(read, mine);
    expect(patch.map((operation) => operation.path)).toEqual([
      '/metadata/finalizers/2',
      '/metadata/finalizers/2',
      '/metadata/finalizers/0',
      '/metadata/finalizers/0',
    ]);
    expect(apply(read, patch).metadata?.finalizers).toEqual(['a.io/x']);
  });

  it('optionally tests the resourceVersion', () => {
    const read = stored([mine], '9');
    const patch = removeFinalizerPatch(read, mine, { testResourceVersion: true });
    expect(patch[0]).toEqual({ op: 'test', path: '/metadata/resourceVersion', value: '9' });
    expect(apply(read, patch).metadata?.finalizers).toEqual([]);
    expect(failsTest(stored([mine], '10'), patch)).toBe(true);
    const local: KubernetesObject = { metadata: { finalizers: [mine] } };
    expect(reasonOf(() => removeFinalizerPatch(local, mine, { testResourceVersion: true }))).toBe(
      'MissingResourceVersion',
    );
  });

  it('is empty when the finalizer is absent', () => {
    expect(removeFinalizerPatch(stored(['a.io/x']), mine)).toEqual([]);
    expect(removeFinalizerPatch(stored(), mine)).toEqual([]);
    expect(reasonOf(() => removeFinalizerPatch(stored(), 'bad name'))).toBe('InvalidFinalizer');
  });
});

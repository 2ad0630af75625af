import { describe, expect, it } from 'vitest';
import { StatusError } from '../api/status-error.js';
import { applyJsonPatch, maxJsonPatchOperations } from './json-patch.js';

function statusOf(run: () => unknown): StatusError {
  try {
    run();
  } catch (error) {
    if (StatusError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a StatusError');
}

const rejected = 'the server rejected our request due to an error in our request';

const pod = () => ({
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'web', labels: { app: 'web' }, finalizers: ['a', 'b'] },
  spec: { containers: [{ name: 'app', image: 'nginx:1.22' }] },
});

describe('applyJsonPatch', () => {
  it('applies add, remove, replace, move, copy and test in order', () => {
    const result = applyJsonPatch(pod(), [
      { op: 'test', path: '/spec/containers/0/image', value: 'nginx:1.22' },
      { op: 'replace', path: '/spec/containers/0/image', value: 'nginx:1.23' },
      { op: 'add', path: '/metadata/labels/tier', value: 'front' },
      { op: 'add', path: '/metadata/finalizers/-', value: 'c' },
      { op: 'remove', path: '/metadata/finalizers/0' },
      { op: 'copy', from: '/metadata/labels/app', path: '/metadata/labels/copy' },
      { op: 'move', from: '/metadata/labels/tier', path: '/metadata/labels/layer' },
      { op: 'add', path: '/spec/containers/0', value: { name: 'sidecar', image: 'envoy' } },
    ]);
    expect(result).toEqual({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: {
        name: 'web',
        labels: { app: 'web', copy: 'web', layer: 'front' },
        finalizers: ['b', 'c'],
      },
      spec: {
        containers: [
          { name: 'sidecar', image: 'envoy' },
          { name: 'app', image: 'nginx:1.23' },
        ],
      },
    });
  });

  it('escapes / and ~ in paths as RFC 6901 says', () => {
    const result = applyJsonPatch({ metadata: { annotations: {} } }, [
      { op: 'add', path: '/metadata/annotations/example.com~1owner~0x', value: 'me' },
    ]);
    expect(result).toEqual({ metadata: { annotations: { 'example.com/owner~x': 'me' } } });
  });

  it('modifies neither the document nor the operations, even when one fails', () => {
    const document = pod();
    const value = { nested: { n: 1 } };
    const operations = [
      { op: 'add', path: '/spec/extra', value },
      { op: 'replace', path: '/spec/extra/nested/n', value: 2 },
      { op: 'test', path: '/metadata/name', value: 'other' },
    ];
    const snapshot = structuredClone({ document, operations });
    expect(() => applyJsonPatch(document, operations)).toThrow(StatusError);
    expect({ document, operations }).toEqual(snapshot);

    const ok = applyJsonPatch(document, operations.slice(0, 2));
    expect(ok.spec).toEqual({ ...document.spec, extra: { nested: { n: 2 } } });
    expect({ document, operations }).toEqual(snapshot);
  });

  it('treats a null body as an empty patch', () => {
    expect(applyJsonPatch(pod(), null)).toEqual(pod());
    expect(applyJsonPatch(pod(), [])).toEqual(pod());
  });

  it.each([
    ['a failed test', [{ op: 'test', path: '/metadata/name', value: 'db' }]],
    ['a missing path to remove', [{ op: 'remove', path: '/metadata/labels/none' }]],
    ['a missing path to replace', [{ op: 'replace', path: '/spec/nodeName', value: 'n1' }]],
    ['a missing parent to add to', [{ op: 'add', path: '/status/phase/x', value: 1 }]],
    ['an index out of range', [{ op: 'add', path: '/metadata/finalizers/7', value: 'x' }]],
    ['a missing from', [{ op: 'move', from: '/nope', path: '/metadata/x' }]],
    ['an unknown op', [{ op: 'merge', path: '/metadata', value: {} }]],
    ["fast-json-patch's internal _get op", [{ op: '_get', path: '/metadata' }]],
    ['a missing op', [{ path: '/metadata/name', value: 'x' }]],
    ['a missing path', [{ op: 'add', value: 'x' }]],
    ['a null operation', [null]],
  ])('answers 422 Invalid with the generic message to %s', (_, operations) => {
    const error = statusOf(() => applyJsonPatch(pod(), operations));
    expect(error.code).toBe(422);
    expect(error.reason).toBe('Invalid');
    expect(error.message).toBe(rejected);
    expect(error.toStatus()).toMatchObject({ status: 'Failure', code: 422, details: {} });
  });

  it.each([
    [{ op: 'add', path: '/a', value: 1 }, 'object', 'jsonpatch.Patch'],
    ['add', 'string', 'jsonpatch.Patch'],
    [7, 'number', 'jsonpatch.Patch'],
    [['add'], 'string', 'jsonpatch.Operation'],
    [[true], 'bool', 'jsonpatch.Operation'],
    [[[]], 'array', 'jsonpatch.Operation'],
  ])('answers 400 BadRequest to the undecodable body %j', (body, jsonType, goType) => {
    const error = statusOf(() => applyJsonPatch(pod(), body));
    expect(error.code).toBe(400);
    expect(error.reason).toBe('BadRequest');
    expect(error.message).toBe(
      `json: cannot unmarshal ${jsonType} into Go value of type ${goType}`,
    );
  });

  it('answers 413 to more operations than kube-apiserver allows', () => {
    const operations = Array.from({ length: maxJsonPatchOperations + 1 }, () => ({
      op: 'test',
      path: '/kind',
      value: 'Pod',
    }));
    const error = statusOf(() => applyJsonPatch(pod(), operations));
    expect(error.code).toBe(413);
    expect(error.reason).toBe('RequestEntityTooLarge');
    expect(error.message).toBe(
      'Request entity too large: The allowed maximum operations in a JSON patch is 10000, got 10001',
    );
  });

  it('answers 422 on the field patch when the whole document is replaced by a non-object', () => {
    const error = statusOf(() => applyJsonPatch(pod(), [{ op: 'replace', path: '', value: 'x' }]));
    expect(error.code).toBe(422);
    expect(error.details?.causes?.[0]).toMatchObject({
      field: 'patch',
      reason: 'FieldValueInvalid',
    });
  });

  it('refuses to touch the prototype', () => {
    const error = statusOf(() =>
      applyJsonPatch({}, [{ op: 'add', path: '/__proto__/polluted', value: true }]),
    );
    expect(error.code).toBe(422);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

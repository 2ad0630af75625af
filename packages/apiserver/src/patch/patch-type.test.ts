import { describe, expect, it } from 'vitest';
import { StatusError } from '../api/status-error.js';
import { patchTypeFromContentType, unsupportedStrategicMergePatch } from './patch-type.js';

function statusOf(run: () => unknown): StatusError {
  try {
    run();
  } catch (error) {
    if (StatusError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a StatusError');
}

const crMessage =
  'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml';

describe('patchTypeFromContentType', () => {
  it.each([
    ['application/json-patch+json', 'json'],
    ['application/merge-patch+json', 'merge'],
    ['application/strategic-merge-patch+json', 'strategic'],
    ['application/apply-patch+yaml', 'apply'],
    ['application/merge-patch+json; charset=utf-8', 'merge'],
    ['application/strategic-merge-patch+json;charset=UTF-8', 'strategic'],
  ])('maps %s to %s', (contentType, type) => {
    expect(patchTypeFromContentType(contentType)).toBe(type);
  });

  it.each([
    'application/json',
    'APPLICATION/MERGE-PATCH+JSON',
    'application/apply-patch+cbor',
    'text/plain',
    '',
    undefined,
  ])('answers 415 as the router does for a built-in kind and %j', (contentType) => {
    const error = statusOf(() => patchTypeFromContentType(contentType));
    expect(error.code).toBe(415);
    expect(error.reason).toBe('UnsupportedMediaType');
    expect(error.message).toBe('415: Unsupported Media Type');
  });

  it('takes JSON, merge and apply patches for a custom resource, not strategic ones', () => {
    const customResource = { customResource: true };
    expect(patchTypeFromContentType('application/json-patch+json', customResource)).toBe('json');
    expect(patchTypeFromContentType('application/merge-patch+json', customResource)).toBe('merge');
    expect(patchTypeFromContentType('application/apply-patch+yaml', customResource)).toBe('apply');
    for (const contentType of ['application/strategic-merge-patch+json', 'text/plain']) {
      const error = statusOf(() => patchTypeFromContentType(contentType, customResource));
      expect(error.code).toBe(415);
      expect(error.message).toBe(crMessage);
    }
  });
});

describe('unsupportedStrategicMergePatch', () => {
  it("words the error as kube-apiserver's negotiation does", () => {
    const error = unsupportedStrategicMergePatch();
    expect(error.toStatus()).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: crMessage,
      reason: 'UnsupportedMediaType',
      code: 415,
    });
  });
});

import { describe, expect, it } from 'vitest';
import { StatusError } from '../api/status-error.js';
import { WebhookCallError } from './webhook-call-error.js';
import { applyWebhookPatch, decodeWebhookPatch } from './webhook-patch.js';

const object = {
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'a', labels: { x: '1' } },
  data: { list: [1, 2] },
};
const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64');

function messageOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (StatusError.isInstance(error) || WebhookCallError.isInstance(error)) return error.message;
    throw error;
  }
  throw new Error('expected an error');
}

describe('decodeWebhookPatch', () => {
  it('decodes base64 JSON operations', () => {
    expect(decodeWebhookPatch('w', encode([{ op: 'remove', path: '/data' }]))).toEqual([
      { op: 'remove', path: '/data' },
    ]);
  });

  it('refuses what is not base64 of an array of operations', () => {
    expect(messageOf(() => decodeWebhookPatch('w', '%%%'))).toBe(
      'failed calling webhook "w": received undecodable patch in webhook response: illegal base64 data',
    );
    expect(messageOf(() => decodeWebhookPatch('w', encode({ op: 'add' })))).toBe(
      'failed calling webhook "w": received undecodable patch in webhook response: json: cannot unmarshal object into Go value of type jsonpatch.Patch',
    );
    expect(messageOf(() => decodeWebhookPatch('w', encode([1])))).toContain(
      'cannot unmarshal number into Go value of type jsonpatch.Operation',
    );
  });
});

describe('applyWebhookPatch', () => {
  it('applies operations in order without touching the input', () => {
    const result = applyWebhookPatch('w', object, [
      { op: 'add', path: '/metadata/labels/y', value: '2' },
      { op: 'replace', path: '/data/list/0', value: 9 },
      { op: 'test', path: '/metadata/name', value: 'a' },
    ]);
    expect(result?.changed).toBe(true);
    expect(result?.object).toMatchObject({
      metadata: { labels: { x: '1', y: '2' } },
      data: { list: [9, 2] },
    });
    expect(object.metadata.labels).toEqual({ x: '1' });
  });

  it('reports no change for an empty patch or one that rewrites a value to itself', () => {
    expect(applyWebhookPatch('w', object, [])).toBeUndefined();
    expect(
      applyWebhookPatch('w', object, [{ op: 'replace', path: '/metadata/name', value: 'a' }])
        ?.changed,
    ).toBe(false);
  });

  it('words failures as kube-apiserver does', () => {
    const fail = (operation: Record<string, unknown>) =>
      messageOf(() => applyWebhookPatch('w', object, [operation]));
    expect(fail({ op: 'add', path: '/metadata/annotations/a', value: 'x' })).toBe(
      'Internal error occurred: add operation does not apply: doc is missing path: "/metadata/annotations/a": missing value',
    );
    expect(fail({ op: 'remove', path: '/metadata/annotations/a' })).toBe(
      'Internal error occurred: remove operation does not apply: doc is missing path: "/metadata/annotations/a": missing value',
    );
    expect(fail({ op: 'remove', path: '/metadata/labels/nope' })).toBe(
      "Internal error occurred: error in remove for path: '/metadata/labels/nope': Unable to remove nonexistent key: nope: missing value",
    );
    expect(fail({ op: 'replace', path: '/metadata/labels/nope', value: 'x' })).toBe(
      'Internal error occurred: replace operation does not apply: doc is missing key: /metadata/labels/nope: missing value',
    );
    expect(fail({ op: 'move', from: '/nope', path: '/b' })).toBe(
      'Internal error occurred: move operation does not apply: doc is missing from path: /nope: missing value',
    );
    expect(fail({ op: 'test', path: '/metadata/name', value: 'b' })).toBe(
      'Internal error occurred: testing value /metadata/name failed: test failed',
    );
    expect(fail({ op: '_get', path: '/metadata' })).toBe(
      'Internal error occurred: Unexpected kind: _get',
    );
  });

  it('refuses to patch a DELETE, which has no object', () => {
    expect(
      messageOf(() => applyWebhookPatch('w', undefined, [{ op: 'add', path: '/a', value: 1 }])),
    ).toBe(
      'Internal error occurred: admission webhook "w" attempted to modify the object, which is not supported for this operation',
    );
  });
});

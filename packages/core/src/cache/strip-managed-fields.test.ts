import { setFlagsFromString } from 'node:v8';
import type { KubernetesObject } from '@ops/api';
import { describe, expect, it } from 'vitest';
import { stripManagedFields } from './strip-managed-fields.js';

/** V8's `%HasFastProperties`: false for an object in (slower, larger) dictionary mode. */
function hasFastProperties(object: object): boolean {
  setFlagsFromString('--allow-natives-syntax');
  const check = new Function('object', 'return %HasFastProperties(object)') as (
    o: object,
  ) => boolean;
  setFlagsFromString('--no-allow-natives-syntax');
  return check(object);
}

const managed = [{ manager: 'kubectl', operation: 'Apply' }];

describe('stripManagedFields', () => {
  it('removes managedFields when it is the last metadata field', () => {
    const object: KubernetesObject = {
      metadata: { name: 'a', uid: 'u', managedFields: managed },
      data: {},
    };
    const result = stripManagedFields(object);
    expect(result).toBe(object);
    expect(result.metadata).toEqual({ name: 'a', uid: 'u' });
    expect('managedFields' in (result.metadata ?? {})).toBe(false);
  });

  it('rebuilds metadata, keeping field order, when managedFields is not last', () => {
    const object: KubernetesObject = {
      metadata: { name: 'a', managedFields: managed, namespace: 'ns', labels: { x: '1' } },
    };
    const labels = object.metadata?.labels;
    const result = stripManagedFields(object);
    expect(Object.keys(result.metadata ?? {})).toEqual(['name', 'namespace', 'labels']);
    expect(result.metadata?.labels).toBe(labels);
  });

  it('leaves metadata with fast properties where kube-apiserver writes managedFields (last)', () => {
    const text =
      '{"metadata":{"name":"a","namespace":"ns","uid":"u","resourceVersion":"7",' +
      '"labels":{"x":"1"},"managedFields":[{"manager":"kubectl","operation":"Apply"}]},"data":{}}';
    const object = JSON.parse(text) as KubernetesObject;
    // The check itself: deleting the last field of a parsed object makes it a dictionary.
    const deleted = JSON.parse(text) as KubernetesObject;
    delete deleted.metadata?.managedFields;
    expect(hasFastProperties(deleted.metadata ?? {})).toBe(false);

    const result = stripManagedFields(object);
    expect(Object.keys(result.metadata ?? {})).toEqual([
      'name',
      'namespace',
      'uid',
      'resourceVersion',
      'labels',
    ]);
    expect(hasFastProperties(result.metadata ?? {})).toBe(true);
  });

  it('leaves objects without managedFields (or metadata) untouched', () => {
    const metadata = { name: 'a' };
    const object: KubernetesObject = { metadata };
    expect(stripManagedFields(object).metadata).toBe(metadata);
    expect(stripManagedFields({ kind: 'X' })).toEqual({ kind: 'X' });
  });
});

import type { KubernetesObject } from '@ops/api';
import { describe, expect, it } from 'vitest';
import { stripManagedFields } from './strip-managed-fields.js';

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

  it('leaves objects without managedFields (or metadata) untouched', () => {
    const metadata = { name: 'a' };
    const object: KubernetesObject = { metadata };
    expect(stripManagedFields(object).metadata).toBe(metadata);
    expect(stripManagedFields({ kind: 'X' })).toEqual({ kind: 'X' });
  });
});

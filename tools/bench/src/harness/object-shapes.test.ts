import { describe, expect, it } from 'vitest';
import {
  objectShapes,
  parseShapes,
  shapeCreateBody,
  shapeManagedFieldsKept,
  shapeManifest,
  shapePlural,
  shapeSecondWrite,
} from './object-shapes.js';

describe('object shapes', () => {
  it('makes Helm ConfigMaps of about 2 KB with 7 labels, 5 annotations and 4 data keys', () => {
    const manifest = shapeManifest('configmaps', 'ns', 7) as {
      metadata: { labels: object; annotations: Record<string, string>; managedFields?: unknown };
      data: object;
    };
    expect(Object.keys(manifest.metadata.labels)).toHaveLength(7);
    expect(Object.keys(manifest.metadata.annotations)).toHaveLength(5);
    expect(Object.keys(manifest.data)).toHaveLength(4);
    expect(manifest.metadata.managedFields).toBeUndefined();
    const applied = JSON.parse(
      manifest.metadata.annotations['kubectl.kubernetes.io/last-applied-configuration'] ?? '',
    ) as { metadata: { name: string } };
    expect(applied.metadata.name).toBe('storefront-config-7');
    const bytes = JSON.stringify(manifest).length;
    expect(bytes).toBeGreaterThan(1_900);
    expect(bytes).toBeLessThan(2_400);
  });

  it('adds managedFields of three managers with nested f: keys to the managed-fields shape', () => {
    const manifest = shapeManifest('managed-fields', 'ns', 1) as {
      metadata: { managedFields: Array<{ manager: string; fieldsV1: Record<string, unknown> }> };
    };
    expect(manifest.metadata.managedFields.map((entry) => entry.manager)).toEqual([
      'kubectl-client-side-apply',
      'helm',
      'storefront-controller',
    ]);
    const metadata = manifest.metadata.managedFields[0]?.fieldsV1['f:metadata'] as {
      'f:labels': Record<string, unknown>;
    };
    expect(metadata['f:labels']).toHaveProperty(['f:app.kubernetes.io/name'], {});
    expect(shapePlural('managed-fields')).toBe('configmaps');
    expect(shapePlural('pods')).toBe('pods');
  });

  it('creates the managed-fields shape without managedFields, which a replace sets afterwards', () => {
    const body = shapeCreateBody('managed-fields', 'ns', 1) as {
      metadata: Record<string, unknown>;
    };
    expect(body.metadata).not.toHaveProperty('managedFields');
    expect(body.metadata.name).toBe('storefront-config-1');
    expect(shapeCreateBody('configmaps', 'ns', 1)).toEqual(shapeManifest('configmaps', 'ns', 1));
    expect(shapeSecondWrite('managed-fields')).toBe(true);
    expect(shapeSecondWrite('pods')).toBe(true);
    expect(shapeSecondWrite('configmaps')).toBe(false);
  });

  it("counts managedFields as kept only when helm's entry survived", () => {
    const kept = {
      metadata: { managedFields: [{ manager: 'kubectl-create' }, { manager: 'helm' }] },
    };
    expect(shapeManagedFieldsKept('managed-fields', kept)).toBe(true);
    expect(
      shapeManagedFieldsKept('managed-fields', {
        metadata: { managedFields: [{ manager: 'kubectl-create' }] },
      }),
    ).toBe(false);
    expect(shapeManagedFieldsKept('managed-fields', undefined)).toBe(false);
    expect(shapeManagedFieldsKept('pods', undefined)).toBe(true);
  });

  it('parses --shapes and names an unknown shape', () => {
    expect(parseShapes('pods, configmaps')).toEqual(['pods', 'configmaps']);
    expect(() => parseShapes('pods,secrets')).toThrow(
      `unknown shape "secrets" in --shapes; known: ${objectShapes.join(', ')}`,
    );
    expect(() => parseShapes(' , ')).toThrow('--shapes needs at least one of');
  });
});

import { helmConfigMapManifest } from './helm-config-map-fixture.js';
import { managedFieldsFor } from './managed-fields-fixture.js';
import { podManifest, podStatus } from './pod-fixture.js';

/**
 * The object shapes the cold-sync matrix measures: `pods` (a Deployment's Running Pod, about
 * 3 KB), `configmaps` (as Helm and `kubectl apply` leave them, about 2.2 KB) and
 * `managed-fields` (those ConfigMaps with the managedFields of three writers, when the server
 * keeps managedFields set on create).
 */
export type ObjectShape = 'pods' | 'configmaps' | 'managed-fields';

/** Every shape, in the order reports list them. */
export const objectShapes: readonly ObjectShape[] = ['pods', 'configmaps', 'managed-fields'];

/** The core-group resource (plural) a shape's objects are. */
export function shapePlural(shape: ObjectShape): 'pods' | 'configmaps' {
  return shape === 'pods' ? 'pods' : 'configmaps';
}

/**
 * The body to create object `index` of `shape` in `namespace` with (a Pod's status is
 * written separately by the seeding: servers drop it from a create).
 */
export function shapeManifest(
  shape: ObjectShape,
  namespace: string,
  index: number,
): Record<string, unknown> {
  if (shape === 'pods') return podManifest(namespace, index);
  const manifest = helmConfigMapManifest(namespace, 'storefront-config', index);
  if (shape === 'configmaps') return manifest;
  const metadata = manifest.metadata as {
    labels: Record<string, string>;
    annotations: Record<string, string>;
  };
  return {
    ...manifest,
    metadata: {
      ...metadata,
      managedFields: managedFieldsFor(
        Object.keys(metadata.labels),
        Object.keys(metadata.annotations),
        Object.keys(manifest.data as Record<string, string>),
        '2025-01-14T09:21:37Z',
      ),
    },
  };
}

/**
 * Everything a seeding writes for object `index` of `shape`: its {@link shapeManifest}, and
 * for a Pod the status that the seeding's status write sets.
 */
export function shapeInput(
  shape: ObjectShape,
  namespace: string,
  index: number,
): Record<string, unknown> {
  const manifest = shapeManifest(shape, namespace, index);
  return shape === 'pods' ? { ...manifest, status: podStatus(index) } : manifest;
}

/**
 * Parses a comma-separated list of shapes (`--shapes`).
 *
 * @throws {Error} naming the unknown shape and the known ones.
 */
export function parseShapes(text: string): ObjectShape[] {
  const shapes = text
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  if (shapes.length === 0)
    throw new Error(`--shapes needs at least one of ${objectShapes.join(', ')}`);
  for (const shape of shapes)
    if (!objectShapes.includes(shape as ObjectShape))
      throw new Error(`unknown shape "${shape}" in --shapes; known: ${objectShapes.join(', ')}`);
  return shapes as ObjectShape[];
}

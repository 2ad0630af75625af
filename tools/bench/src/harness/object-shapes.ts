import { helmConfigMapManifest } from './helm-config-map-fixture.js';
import { managedFieldsFor } from './managed-fields-fixture.js';
import { podManifest, podStatus } from './pod-fixture.js';

/**
 * The object shapes the cold-sync matrix measures: `pods` (a Deployment's Running Pod, about
 * 3 KB), `configmaps` (as Helm and `kubectl apply` leave them, about 2.2 KB) and
 * `managed-fields` (those ConfigMaps with the managedFields of three writers).
 *
 * A server keeps managedFields given on an update but not on a create: kube-apiserver (and
 * the local server, alike) gives a create's every field to its own manager, so the entries
 * in the body lose all they claimed and are dropped. Seeding therefore writes the
 * `managed-fields` shape as {@link shapeCreateBody}, then replaces it with its
 * {@link shapeManifest}, managedFields included, which both servers keep as given.
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
 * The body that creates object `index` of `shape`: its {@link shapeManifest} without the
 * managedFields a create would drop (the seeding sets them with a replace afterwards).
 */
export function shapeCreateBody(
  shape: ObjectShape,
  namespace: string,
  index: number,
): Record<string, unknown> {
  const manifest = shapeManifest(shape, namespace, index);
  if (shape !== 'managed-fields') return manifest;
  const { managedFields: _dropped, ...metadata } = manifest.metadata as Record<string, unknown>;
  return { ...manifest, metadata };
}

/** Whether seeding object of `shape` takes a second write (a Pod's status, or managedFields). */
export function shapeSecondWrite(shape: ObjectShape): boolean {
  return shape !== 'configmaps';
}

/**
 * Whether the server kept the managedFields that seeding gave `object` of `shape` (always
 * true but for `managed-fields`, whose entries include `helm`'s).
 */
export function shapeManagedFieldsKept(shape: ObjectShape, object: unknown): boolean {
  if (shape !== 'managed-fields') return true;
  const metadata = (object as { metadata?: { managedFields?: unknown } } | undefined)?.metadata;
  const entries = metadata?.managedFields;
  return (
    Array.isArray(entries) &&
    entries.some((entry) => (entry as { manager?: unknown } | null)?.manager === 'helm')
  );
}

/**
 * The managedFields that seeding sets on object `index` of `shape` with a replace after the
 * create (none but for `managed-fields`).
 */
export function shapeManagedFields(
  shape: ObjectShape,
  namespace: string,
  index: number,
): unknown[] | undefined {
  if (shape !== 'managed-fields') return undefined;
  const metadata = shapeManifest(shape, namespace, index).metadata as { managedFields?: unknown[] };
  return metadata.managedFields;
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

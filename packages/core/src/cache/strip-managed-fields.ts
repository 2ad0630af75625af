import type { KubernetesObject, ObjectMeta } from '@ops/api';

/**
 * Changes an object as it enters an informer's store, before any handler sees it: drop
 * what the program never reads to save memory. It receives an object freshly parsed from
 * the API server that nothing else references, so it may change it in place.
 *
 * Assumes: returns an object with the same `metadata.namespace`, `metadata.name` and
 * `metadata.resourceVersion` (the store keys and compares by them).
 */
export type TransformFunc = (object: KubernetesObject) => KubernetesObject;

/**
 * The default {@link TransformFunc}: removes `metadata.managedFields` (server-side apply
 * bookkeeping, often the largest part of an object and never read by controllers).
 *
 * Guarantees: changes `object` in place and returns it; keeps every other field and the
 * order of metadata's fields; leaves metadata's hidden class "fast" in V8: metadata is
 * rebuilt without the field rather than the field deleted, because deleting a property of an
 * object `JSON.parse` made (even its last one, where kube-apiserver writes managedFields)
 * turns it into a dictionary, measured at about 400 B more per ConfigMap and 750 B per Pod.
 * Objects without managed fields are untouched.
 */
export function stripManagedFields(object: KubernetesObject): KubernetesObject {
  const metadata = object.metadata;
  if (metadata === undefined || metadata === null || metadata.managedFields === undefined) {
    return object;
  }
  const rebuilt: ObjectMeta = {};
  for (const key of Object.keys(metadata))
    if (key !== 'managedFields') rebuilt[key] = metadata[key];
  object.metadata = rebuilt;
  return object;
}

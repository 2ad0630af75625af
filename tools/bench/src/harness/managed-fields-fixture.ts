/**
 * `metadata.managedFields` as a real cluster leaves them on an object that several writers
 * touched: `kubectl apply` (client-side, an Update entry), `helm` (an Update entry) and a
 * controller using server-side apply (an Apply entry), each with nested `f:` keys for the
 * labels, annotations and data it set. About 1.5 KB of JSON per object on top of it.
 */

/** The `fieldsV1` tree of `keys` under `prefix` (e.g. `f:data`): every key a leaf `{}`. */
function fieldSet(keys: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(keys.map((key) => [`f:${key}`, {}]));
}

/**
 * The managedFields of an object with these `labels`, `annotations` and `data` keys,
 * written at `time` (RFC 3339).
 *
 * @throws {Error} when an object has no label, annotation or data key to own.
 */
export function managedFieldsFor(
  labels: readonly string[],
  annotations: readonly string[],
  data: readonly string[],
  time: string,
): Array<Record<string, unknown>> {
  if (labels.length === 0 || annotations.length === 0 || data.length === 0)
    throw new Error(
      'managedFieldsFor needs at least one label, annotation and data key to split between managers',
    );
  const half = (keys: readonly string[]) => Math.max(1, Math.floor(keys.length / 2));
  return [
    {
      manager: 'kubectl-client-side-apply',
      operation: 'Update',
      apiVersion: 'v1',
      time,
      fieldsType: 'FieldsV1',
      fieldsV1: {
        'f:data': { '.': {}, ...fieldSet(data.slice(0, half(data))) },
        'f:metadata': {
          'f:annotations': { '.': {}, ...fieldSet(annotations.slice(0, 1)) },
          'f:labels': { '.': {}, ...fieldSet(labels.slice(0, half(labels))) },
        },
      },
    },
    {
      manager: 'helm',
      operation: 'Update',
      apiVersion: 'v1',
      time,
      fieldsType: 'FieldsV1',
      fieldsV1: {
        'f:data': fieldSet(data.slice(half(data))),
        'f:metadata': {
          'f:annotations': fieldSet(annotations.slice(1)),
          'f:labels': fieldSet(labels.slice(half(labels))),
        },
      },
    },
    {
      manager: 'storefront-controller',
      operation: 'Apply',
      apiVersion: 'v1',
      time,
      fieldsType: 'FieldsV1',
      fieldsV1: {
        'f:metadata': {
          'f:labels': fieldSet(labels.slice(0, 2)),
          'f:ownerReferences': {
            'k:{"uid":"0b7c3f9e-4a1d-4c2b-9e8f-000000000001"}': {},
          },
        },
      },
    },
  ];
}

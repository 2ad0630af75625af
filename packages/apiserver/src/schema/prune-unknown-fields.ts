import { isJsonObject } from '@ops/api';
/**
 * Pruning of unknown fields, as kube-apiserver does to every custom resource it decodes
 * (apiextensions-apiserver's `pruning.PruneWithOptions`).
 */

import type { JSONSchemaProps } from '@ops/api';
import {
  additionalPropertiesSchema,
  hasAdditionalProperties,
  itemsSchema,
  propertySchema,
} from './json-value.js';

const metaFields = new Set(['apiVersion', 'kind', 'metadata']);

function childPath(path: string, key: string): string {
  return path === '' ? key : `${path}.${key}`;
}

function prune(
  value: unknown,
  schema: JSONSchemaProps | undefined,
  path: string,
  pruned: string[],
): void {
  if (schema?.['x-kubernetes-preserve-unknown-fields'] === true) {
    keepUnknown(value, schema, path, pruned);
    return;
  }
  if (Array.isArray(value)) {
    const items = itemsSchema(schema);
    value.forEach((item, index) => {
      prune(item, items, `${path}[${index}]`, pruned);
    });
    return;
  }
  if (!isJsonObject(value)) return;
  const embedded = schema?.['x-kubernetes-embedded-resource'] === true;
  for (const key of Object.keys(value)) {
    if (embedded && metaFields.has(key)) continue;
    const child = childPath(path, key);
    const property = propertySchema(schema, key);
    if (property) {
      prune(value[key], property, child, pruned);
    } else if (hasAdditionalProperties(schema)) {
      prune(value[key], additionalPropertiesSchema(schema), child, pruned);
    } else {
      pruned.push(child);
      delete value[key];
    }
  }
}

/** Under `x-kubernetes-preserve-unknown-fields`: unknown fields stay, known ones are pruned inside. */
function keepUnknown(value: unknown, schema: JSONSchemaProps, path: string, pruned: string[]) {
  if (Array.isArray(value)) {
    const items = itemsSchema(schema);
    value.forEach((item, index) => {
      prune(item, items, `${path}[${index}]`, pruned);
    });
    return;
  }
  if (!isJsonObject(value)) return;
  const embedded = schema['x-kubernetes-embedded-resource'] === true;
  const additional = additionalPropertiesSchema(schema);
  for (const key of Object.keys(value)) {
    if (embedded && metaFields.has(key)) continue;
    const property = propertySchema(schema, key);
    if (property) prune(value[key], property, childPath(path, key), pruned);
    else if (additional) prune(value[key], additional, childPath(path, key), pruned);
  }
}

/**
 * Removes, in place, every field of `object` (a whole custom resource) that `schema` does not
 * specify, and returns the paths it removed in kube-apiserver's spelling (`spec.foo`,
 * `spec.ports[0].extra`, map keys dot-joined), the paths behind `fieldValidation=Strict`'s
 * `unknown field "spec.foo"` and `Warn`'s warnings.
 *
 * Kept: the root's `apiVersion`, `kind` and `metadata`; the same three fields of every
 * embedded resource (`x-kubernetes-embedded-resource`), whatever their content; every field
 * under `x-kubernetes-preserve-unknown-fields` (known fields below it are still pruned
 * inside); every key of a map (`additionalProperties`, whose values are pruned by its schema;
 * with `additionalProperties: true` nested objects in values lose all their fields, as in
 * kube-apiserver). Scalars are never changed; a value whose shape does not match the schema
 * is left for validation to report. Unknown fields inside `metadata` are not dropped here
 * (kube-apiserver drops them while coercing object metadata). Never throws.
 */
export function pruneUnknownFields(schema: JSONSchemaProps, object: unknown): string[] {
  const pruned: string[] = [];
  const root: JSONSchemaProps = {
    ...(isJsonObject(schema) ? schema : {}),
    'x-kubernetes-embedded-resource': true,
  };
  prune(object, root, '', pruned);
  return pruned;
}

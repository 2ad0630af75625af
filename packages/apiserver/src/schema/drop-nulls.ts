import { isJsonObject } from '@ops/api';
/**
 * Dropping of `null`s the schema does not allow, as kube-apiserver does right after pruning
 * (apiextensions-apiserver's `PruneNonNullableNullsWithoutDefaults`).
 */

import type { JSONSchemaProps } from '@ops/api';
import {
  additionalPropertiesSchema,
  defaultOf,
  itemsSchema,
  propertySchema,
} from './json-value.js';

function fieldSchema(schema: JSONSchemaProps | undefined, key: string) {
  return propertySchema(schema, key) ?? additionalPropertiesSchema(schema);
}

function drop(value: unknown, schema: JSONSchemaProps | undefined): void {
  if (Array.isArray(value)) {
    const items = itemsSchema(schema);
    for (const item of value) drop(item, items);
    return;
  }
  if (!isJsonObject(value)) return;
  for (const key of Object.keys(value)) {
    const child = fieldSchema(schema, key);
    const item = value[key];
    if (item === null && child && child.nullable !== true && defaultOf(child) === undefined) {
      delete value[key];
    } else {
      drop(item, child);
    }
  }
}

/**
 * Removes, in place, every object field of `object` whose value is `null` while its schema (a
 * property or `additionalProperties` schema) is neither `nullable` nor has a `default`: to
 * kube-apiserver such a `null` means "unset". Nulls that have a default are left for
 * `applyDefaults`, which replaces them; nullable nulls stay; nulls in arrays stay (and fail
 * validation unless the items are nullable or defaulted); fields without a schema are
 * pruning's business. Run it after `pruneUnknownFields` and before `applyDefaults`. Never
 * throws.
 */
export function dropNullsForNonNullable(schema: JSONSchemaProps, object: unknown): void {
  drop(object, isJsonObject(schema) ? schema : undefined);
}

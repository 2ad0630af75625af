import { isJsonObject } from '@ops/api';
/**
 * The uniqueness invariants of `x-kubernetes-list-type` (apiextensions-apiserver's
 * `listtype.ValidateListSetsAndMaps`): a `set` holds no value twice, a `map` holds no two
 * items with the same `x-kubernetes-list-map-keys` values (a missing key counts as its
 * default, or as "unspecified"). Each repeat is reported once, at its first repeated index,
 * as `FieldValueDuplicate`. Field paths are apimachinery `field.Path`s: map keys as `[key]`.
 */

import type { JSONSchemaProps } from '@ops/api';
import type { FieldError } from '../api/field-error.js';
import { pathChild, pathIndex, pathKey } from './field-path.js';
import {
  additionalPropertiesSchema,
  canonicalJson,
  defaultOf,
  itemsSchema,
  propertySchema,
} from './json-value.js';

/** Indexes of the second occurrence of every value seen more than once. */
function repeatedIndexes(keys: string[]): number[] {
  const seen = new Map<string, number>();
  const repeated: number[] = [];
  keys.forEach((key, index) => {
    const times = seen.get(key) ?? 0;
    if (times === 1) repeated.push(index);
    seen.set(key, times + 1);
  });
  return repeated;
}

function validateSet(path: string, list: unknown[], errors: FieldError[]): void {
  if (list.length <= 1) return;
  for (const index of repeatedIndexes(list.map(canonicalJson))) {
    errors.push({ type: 'FieldValueDuplicate', field: pathIndex(path, index), value: list[index] });
  }
}

function validateMap(
  path: string,
  schema: JSONSchemaProps,
  list: unknown[],
  errors: FieldError[],
): void {
  for (const [index, item] of list.entries()) {
    if (item !== null && !isJsonObject(item)) {
      errors.push({
        type: 'FieldValueInvalid',
        field: pathIndex(path, index),
        value: item,
        detail: 'must be an object for an array of list-type map',
      });
      return;
    }
  }
  if (list.length <= 1) return;
  const keyFields = Array.isArray(schema['x-kubernetes-list-map-keys'])
    ? schema['x-kubernetes-list-map-keys'].filter((key): key is string => typeof key === 'string')
    : [];
  const items = itemsSchema(schema);
  const keyOf = (item: unknown): Record<string, unknown> => {
    const key: Record<string, unknown> = {};
    for (const field of keyFields) {
      const value = isJsonObject(item) ? item[field] : undefined;
      const fallback = defaultOf(propertySchema(items, field));
      if (value !== undefined) key[field] = value;
      else if (fallback !== undefined) key[field] = fallback;
    }
    return key;
  };
  const keys = list.map((item) => keyOf(item));
  for (const index of repeatedIndexes(keys.map(canonicalJson))) {
    errors.push({ type: 'FieldValueDuplicate', field: pathIndex(path, index), value: keys[index] });
  }
}

function walk(
  path: string,
  value: unknown,
  schema: JSONSchemaProps | undefined,
  errors: FieldError[],
): void {
  if (!schema) return;
  if (Array.isArray(value)) {
    const listType = schema['x-kubernetes-list-type'];
    if (listType === 'set') validateSet(path, value, errors);
    else if (listType === 'map') validateMap(path, schema, value, errors);
    const items = itemsSchema(schema);
    value.forEach((item, index) => {
      walk(pathIndex(path, index), item, items, errors);
    });
    return;
  }
  if (!isJsonObject(value)) return;
  const additional = additionalPropertiesSchema(schema);
  for (const [key, item] of Object.entries(value)) {
    const property = propertySchema(schema, key);
    if (property) walk(pathChild(path, key), item, property, errors);
    else if (additional) walk(pathKey(path, key), item, additional, errors);
  }
}

/**
 * The list-type violations in `object` (a whole custom resource) under `schema`. `atomic` and
 * untyped lists have none. Never throws; non-object input has none.
 */
export function validateListTypes(schema: JSONSchemaProps, object: unknown): FieldError[] {
  const errors: FieldError[] = [];
  walk('', object, isJsonObject(schema) ? schema : undefined, errors);
  return errors;
}

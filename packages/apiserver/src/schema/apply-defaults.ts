import { isJsonObject } from '@ops/api';
/**
 * Defaulting of custom resources from their structural schema, as kube-apiserver does when it
 * decodes one (apiextensions-apiserver's `structuraldefaulting.Default`).
 */

import type { JSONSchemaProps } from '@ops/api';
import {
  additionalPropertiesSchema,
  defaultOf,
  itemsSchema,
  jsonCopy,
  propertyEntries,
  propertySchema,
} from './json-value.js';

/** A `null` the schema does not allow (and that a default may therefore replace). */
function nonNullableNull(value: unknown, schema: JSONSchemaProps | undefined): boolean {
  return value === null && schema !== undefined && schema.nullable !== true;
}

function applyTo(value: unknown, schema: JSONSchemaProps | undefined): void {
  if (!schema) return;
  if (Array.isArray(value)) {
    const items = itemsSchema(schema);
    const fallback = defaultOf(items);
    value.forEach((item, index) => {
      if (fallback !== undefined && nonNullableNull(item, items)) value[index] = jsonCopy(fallback);
      applyTo(value[index], items);
    });
    return;
  }
  if (!isJsonObject(value)) return;
  for (const [name, property] of propertyEntries(schema)) {
    const fallback = defaultOf(property);
    if (fallback === undefined) continue;
    if (value[name] === undefined || nonNullableNull(value[name], property)) {
      value[name] = jsonCopy(fallback);
    }
  }
  const additional = additionalPropertiesSchema(schema);
  const additionalDefault = defaultOf(additional);
  for (const key of Object.keys(value)) {
    const property = propertySchema(schema, key);
    if (property) {
      applyTo(value[key], property);
    } else if (additional) {
      if (additionalDefault !== undefined && nonNullableNull(value[key], additional)) {
        value[key] = jsonCopy(additionalDefault);
      }
      applyTo(value[key], additional);
    }
  }
}

/**
 * Fills in `default`s, in place, throughout `object` (a whole custom resource), as
 * kube-apiserver does:
 *
 * - a property with a `default` gets a deep copy of it when it is absent, or `null` while not
 *   `nullable`; a `nullable` property keeps its explicit `null`;
 * - defaulting recurses into every present object, array item and map value, so an object
 *   that was itself just defaulted gets its own nested defaults too, and defaults apply inside
 *   array items and `additionalProperties` values (a `null` item or map value is replaced by
 *   the items' or values' default when it is not nullable);
 * - a default never creates a missing parent: `spec.replicas`'s default applies only when
 *   `spec` exists or `spec` itself has a default;
 * - defaults under `allOf`/`anyOf`/`oneOf`/`not` are ignored (they are not structural), and a
 *   `default: null` means no default.
 *
 * Run it after `pruneUnknownFields` and `dropNullsForNonNullable`, before
 * `validateCustomResource`. Never throws; a value of the wrong shape is left alone.
 */
export function applyDefaults(schema: JSONSchemaProps, object: unknown): void {
  applyTo(object, isJsonObject(schema) ? schema : undefined);
}

import { isJsonObject } from '@ops/api';
/**
 * Validation of a custom resource against the structural schema of its CRD version, as
 * kube-apiserver's custom resource strategy does on create and update.
 */

import type { JSONSchemaProps } from '@ops/api';
import type { FieldError } from '../api/field-error.js';
import { validateEmbeddedResources } from './embedded-resources.js';
import { propertySchema } from './json-value.js';
import { validateListTypes } from './list-types.js';
import { validateValue } from './validate-value.js';

/**
 * The root schema used for validation: `metadata` is validated elsewhere (object metadata
 * rules), so of its schema only what a CRD may say about it is kept: constraints on
 * `metadata.name` and `metadata.generateName`.
 */
function rootSchema(schema: JSONSchemaProps): JSONSchemaProps {
  const metadata = propertySchema(schema, 'metadata');
  if (!metadata || !isJsonObject(schema.properties)) return schema;
  const kept: Record<string, JSONSchemaProps> = {};
  for (const name of ['name', 'generateName']) {
    const child = propertySchema(metadata, name);
    if (child) kept[name] = child;
  }
  return { ...schema, properties: { ...schema.properties, metadata: { properties: kept } } };
}

/**
 * The field errors of a whole custom resource (`apiVersion`, `kind`, `metadata`, `spec`, ...)
 * against the OpenAPI v3 schema of its version, worded as kube-apiserver words them
 * (`spec.image: Required value`, `spec.enabled: Invalid value: "string": spec.enabled in body
 * must be of type boolean: "string"`), in kube-apiserver's order: schema errors, then embedded
 * resource errors, then list-type duplicates. An empty list means valid.
 *
 * Assumes the object was already pruned (`pruneUnknownFields`), had its non-nullable nulls
 * dropped (`dropNullsForNonNullable`) and was defaulted (`applyDefaults`), as kube-apiserver
 * does before validating; a `null` that survives to here is reported as a type error
 * (`must be of type string: "null"`) unless the field is `nullable`.
 *
 * Not checked: `metadata` (beyond the CRD's own `metadata.name`/`generateName` constraints;
 * object metadata rules live elsewhere) and `x-kubernetes-validations` (CEL rules run after
 * these checks, in `validateCelRules`). Never throws: a malformed schema or a value of the
 * wrong shape yields errors (or none), not exceptions.
 */
export function validateCustomResource(schema: JSONSchemaProps, object: unknown): FieldError[] {
  const root = isJsonObject(schema) ? rootSchema(schema) : {};
  return [
    ...validateValue(root, object, ''),
    ...validateEmbeddedResources(root, object),
    ...validateListTypes(root, object),
  ];
}

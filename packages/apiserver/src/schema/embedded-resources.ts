import { isJsonObject } from '@ops/api';
/**
 * Checks of embedded resources (`x-kubernetes-embedded-resource: true`) below the root of a
 * custom resource, as apiextensions-apiserver's `objectmeta.Validate` does: an embedded object
 * needs a string `apiVersion` (a valid group/version) and a string `kind` (a DNS-1035 label in
 * any case); its `metadata`, if present, must be an object whose name, labels and annotations
 * are checked loosely. Field paths are apimachinery `field.Path`s: map keys as `[key]`.
 */

import type { JSONSchemaProps } from '@ops/api';
import { validateLabelValue, validateQualifiedName } from '@ops/api';
import type { FieldError } from '../api/field-error.js';
import { pathChild, pathIndex, pathKey } from './field-path.js';
import { additionalPropertiesSchema, itemsSchema, propertySchema } from './json-value.js';

const dns1035Label = /^[a-z]([-a-z0-9]*[a-z0-9])?$/;

/** Go's `%T` of a decoded JSON value, for messages that name a type. */
function goTypeName(value: unknown): string {
  if (value === null) return '<nil>';
  if (Array.isArray(value)) return '[]interface {}';
  switch (typeof value) {
    case 'string':
      return 'string';
    case 'boolean':
      return 'bool';
    case 'number':
      return Number.isInteger(value) ? 'int64' : 'float64';
    default:
      return 'map[string]interface {}';
  }
}

function dns1035Problems(value: string): string[] {
  const problems: string[] = [];
  if (value.length > 63) problems.push('must be no more than 63 characters');
  if (!dns1035Label.test(value)) {
    problems.push(
      "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
    );
  }
  return problems;
}

function validateStringMap(
  path: string,
  value: unknown,
  checkValues: boolean,
  errors: FieldError[],
): void {
  if (value === undefined || value === null) return;
  if (!isJsonObject(value)) {
    errors.push({
      type: 'FieldValueInvalid',
      field: path,
      value,
      detail: 'must be a map of strings',
    });
    return;
  }
  for (const [key, item] of Object.entries(value)) {
    const keyToCheck = checkValues ? key : key.toLowerCase();
    for (const problem of validateQualifiedName(keyToCheck)) {
      errors.push({ type: 'FieldValueInvalid', field: path, value: key, detail: problem });
    }
    if (typeof item !== 'string') {
      errors.push({
        type: 'FieldValueInvalid',
        field: pathKey(path, key),
        value: item,
        detail: 'must be a string',
      });
    } else if (checkValues) {
      for (const problem of validateLabelValue(item)) {
        errors.push({ type: 'FieldValueInvalid', field: path, value: item, detail: problem });
      }
    }
  }
}

function validateMetadata(path: string, metadata: unknown, errors: FieldError[]): void {
  if (!isJsonObject(metadata)) {
    errors.push({
      type: 'FieldValueInvalid',
      field: path,
      value: metadata,
      detail: `invalid metadata: expected object, got ${goTypeName(metadata)}`,
    });
    return;
  }
  for (const field of ['name', 'generateName', 'namespace']) {
    const value = metadata[field];
    if (value === undefined || value === null) continue;
    if (typeof value !== 'string') {
      errors.push({
        type: 'FieldValueInvalid',
        field: pathChild(path, field),
        value,
        detail: 'must be a string',
      });
      continue;
    }
    if (field !== 'name') continue;
    const problems: string[] = [];
    if (value === '.' || value === '..') problems.push(`may not be '${value}'`);
    for (const forbidden of ['/', '%']) {
      if (value.includes(forbidden)) problems.push(`may not contain '${forbidden}'`);
    }
    for (const problem of problems) {
      errors.push({
        type: 'FieldValueInvalid',
        field: pathChild(path, 'name'),
        value,
        detail: problem,
      });
    }
  }
  validateStringMap(pathChild(path, 'labels'), metadata.labels, true, errors);
  validateStringMap(pathChild(path, 'annotations'), metadata.annotations, false, errors);
}

function validateEmbedded(path: string, object: Record<string, unknown>, errors: FieldError[]) {
  const apiVersionPath = pathChild(path, 'apiVersion');
  const kindPath = pathChild(path, 'kind');
  if (object.apiVersion === undefined) {
    errors.push({ type: 'FieldValueRequired', field: apiVersionPath });
  }
  if (object.kind === undefined) errors.push({ type: 'FieldValueRequired', field: kindPath });
  const { apiVersion, kind } = object;
  if (apiVersion !== undefined) {
    if (typeof apiVersion !== 'string') {
      errors.push({
        type: 'FieldValueInvalid',
        field: apiVersionPath,
        value: apiVersion,
        detail: 'must be a string',
      });
    } else if (apiVersion === '') {
      errors.push({
        type: 'FieldValueInvalid',
        field: apiVersionPath,
        value: apiVersion,
        detail: 'must not be empty',
      });
    } else if (apiVersion !== '/' && apiVersion.split('/').length > 2) {
      errors.push({
        type: 'FieldValueInvalid',
        field: apiVersionPath,
        value: apiVersion,
        detail: `unexpected GroupVersion string: ${apiVersion}`,
      });
    }
  }
  if (kind !== undefined) {
    if (typeof kind !== 'string') {
      errors.push({
        type: 'FieldValueInvalid',
        field: kindPath,
        value: kind,
        detail: 'must be a string',
      });
    } else if (kind === '') {
      errors.push({
        type: 'FieldValueInvalid',
        field: kindPath,
        value: kind,
        detail: 'must not be empty',
      });
    } else {
      const problems = dns1035Problems(kind.toLowerCase());
      if (problems.length > 0) {
        errors.push({
          type: 'FieldValueInvalid',
          field: kindPath,
          value: kind,
          detail: `may have mixed case, but should otherwise match: ${problems.join(',')}`,
        });
      }
    }
  }
  if (object.metadata !== undefined) {
    validateMetadata(pathChild(path, 'metadata'), object.metadata, errors);
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
    const items = itemsSchema(schema);
    value.forEach((item, index) => {
      walk(pathIndex(path, index), item, items, errors);
    });
    return;
  }
  if (!isJsonObject(value)) return;
  if (schema['x-kubernetes-embedded-resource'] === true) validateEmbedded(path, value, errors);
  const additional = additionalPropertiesSchema(schema);
  for (const [key, item] of Object.entries(value)) {
    const property = propertySchema(schema, key);
    if (property) walk(pathChild(path, key), item, property, errors);
    else if (additional) walk(pathKey(path, key), item, additional, errors);
  }
}

/**
 * The problems of the embedded resources inside `object` (a whole custom resource; its root is
 * not itself checked as an embedded resource here). Never throws; non-object input has none.
 */
export function validateEmbeddedResources(schema: JSONSchemaProps, object: unknown): FieldError[] {
  const errors: FieldError[] = [];
  walk('', object, isJsonObject(schema) ? schema : undefined, errors);
  return errors;
}

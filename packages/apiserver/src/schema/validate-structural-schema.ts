import { isJsonObject } from '@ops/api';
/**
 * Static checks of a CRD version's `openAPIV3Schema`, as kube-apiserver makes them when a
 * CustomResourceDefinition is created or updated: the CRD schema rules of
 * `ValidateCustomResourceDefinitionOpenAPISchema` and the structural-schema rules of
 * `schema.ValidateStructural` (apiextensions-apiserver).
 */

import type { JSONSchemaProps } from '@ops/api';
import type { FieldError } from '../api/field-error.js';
import { formatFieldError } from '../api/field-error.js';
import { pathChild, pathIndex, pathKey } from './field-path.js';
import { compileGoPattern } from './go-pattern.js';
import {
  additionalPropertiesSchema,
  asSchema,
  defaultOf,
  hasAdditionalProperties,
  itemsSchema,
  propertyEntries,
  propertySchema,
} from './json-value.js';

type Level = 'root' | 'item' | 'field';

const openApiTypes = ['array', 'boolean', 'integer', 'number', 'object', 'string'];

function typeOf(schema: JSONSchemaProps): string {
  return typeof schema.type === 'string' ? schema.type : '';
}

function required(field: string, detail: string): FieldError {
  return { type: 'FieldValueRequired', field, detail };
}

function forbidden(field: string, detail: string): FieldError {
  return { type: 'FieldValueForbidden', field, detail };
}

function invalid(field: string, value: unknown, detail: string): FieldError {
  return { type: 'FieldValueInvalid', field, value, detail };
}

function properties(path: string, name: string): string {
  return pathKey(pathChild(path, 'properties'), name);
}

function junctors(schema: JSONSchemaProps): [string, unknown][] {
  return [
    ['allOf', schema.allOf],
    ['anyOf', schema.anyOf],
    ['oneOf', schema.oneOf],
  ];
}

// ---- CRD schema rules (ValidateCustomResourceDefinitionOpenAPISchema) -------------------

function crdRules(node: unknown, path: string, errors: FieldError[]): void {
  if (node === undefined) return;
  const schema = asSchema(node);
  if (!schema) {
    errors.push(invalid(path, node, 'must be a JSON schema object'));
    return;
  }
  const type = typeOf(schema);
  if (type !== '' && !openApiTypes.includes(type)) {
    errors.push({
      type: 'FieldValueNotSupported',
      field: pathChild(path, 'type'),
      value: type,
      detail: `supported values: ${openApiTypes.map((t) => JSON.stringify(t)).join(', ')}`,
    });
  }
  if (schema.uniqueItems === true) {
    errors.push(
      forbidden(
        pathChild(path, 'uniqueItems'),
        'uniqueItems cannot be set to true since the runtime complexity becomes quadratic',
      ),
    );
  }
  const additional = schema.additionalProperties;
  if (additional !== undefined) {
    const hasProperties =
      isJsonObject(schema.properties) && Object.keys(schema.properties).length > 0;
    if (hasProperties && (additional === false || isJsonObject(additional))) {
      errors.push(
        forbidden(
          pathChild(path, 'additionalProperties'),
          'additionalProperties and properties are mutual exclusive',
        ),
      );
    }
    if (typeof additional !== 'boolean') {
      crdRules(additional, pathChild(path, 'additionalProperties'), errors);
    }
  }
  if (schema.properties !== undefined && !isJsonObject(schema.properties)) {
    errors.push(invalid(pathChild(path, 'properties'), schema.properties, 'must be an object'));
  } else if (isJsonObject(schema.properties)) {
    for (const [name, child] of Object.entries(schema.properties)) {
      crdRules(child, properties(path, name), errors);
    }
  }
  crdRules(schema.not, pathChild(path, 'not'), errors);
  for (const [junctor, list] of junctors(schema)) {
    if (list === undefined) continue;
    if (!Array.isArray(list)) {
      errors.push(invalid(pathChild(path, junctor), list, 'must be a list of schemas'));
      continue;
    }
    list.forEach((child, index) => {
      crdRules(child, pathIndex(pathChild(path, junctor), index), errors);
    });
  }
  if (Array.isArray(schema.items)) {
    errors.push(
      forbidden(pathChild(path, 'items'), 'items must be a schema object and not an array'),
    );
  } else {
    crdRules(schema.items, pathChild(path, 'items'), errors);
  }
  listAndMapRules(schema, type, path, errors);
  celRuleShapes(schema, path, errors);
}

function listAndMapRules(
  schema: JSONSchemaProps,
  type: string,
  path: string,
  errors: FieldError[],
): void {
  const preserve = schema['x-kubernetes-preserve-unknown-fields'];
  if (preserve !== undefined && preserve !== true) {
    errors.push(
      invalid(
        pathChild(path, 'x-kubernetes-preserve-unknown-fields'),
        preserve,
        'must be true or undefined',
      ),
    );
  }
  const mapType = schema['x-kubernetes-map-type'];
  if (mapType !== undefined) {
    if (type !== 'object') {
      const detail = 'must be object if x-kubernetes-map-type is specified';
      errors.push(
        type === ''
          ? required(pathChild(path, 'type'), detail)
          : invalid(pathChild(path, 'type'), type, detail),
      );
    }
    if (mapType !== 'atomic' && mapType !== 'granular') {
      errors.push({
        type: 'FieldValueNotSupported',
        field: pathChild(path, 'x-kubernetes-map-type'),
        value: mapType,
        detail: 'supported values: "atomic", "granular"',
      });
    }
  }
  const listType = schema['x-kubernetes-list-type'];
  if (listType !== undefined) {
    if (type !== 'array') {
      const detail = 'must be array if x-kubernetes-list-type is specified';
      errors.push(
        type === ''
          ? required(pathChild(path, 'type'), detail)
          : invalid(pathChild(path, 'type'), type, detail),
      );
    }
    if (listType !== 'atomic' && listType !== 'set' && listType !== 'map') {
      errors.push({
        type: 'FieldValueNotSupported',
        field: pathChild(path, 'x-kubernetes-list-type'),
        value: listType,
        detail: 'supported values: "atomic", "set", "map"',
      });
    }
  }
  const mapKeys = Array.isArray(schema['x-kubernetes-list-map-keys'])
    ? schema['x-kubernetes-list-map-keys']
    : [];
  if (mapKeys.length > 0) {
    const detail = 'must be map if x-kubernetes-list-map-keys is non-empty';
    if (listType === undefined)
      errors.push(required(pathChild(path, 'x-kubernetes-list-type'), detail));
    else if (listType !== 'map') {
      errors.push(invalid(pathChild(path, 'x-kubernetes-list-type'), listType, detail));
    }
  }
  if (listType !== 'map') return;
  if (mapKeys.length === 0) {
    errors.push(
      required(
        pathChild(path, 'x-kubernetes-list-map-keys'),
        'must not be empty if x-kubernetes-list-type is map',
      ),
    );
  }
  const items = itemsSchema(schema);
  if (!items) {
    if (!Array.isArray(schema.items)) {
      errors.push(
        required(pathChild(path, 'items'), 'must have a schema if x-kubernetes-list-type is map'),
      );
    }
    return;
  }
  const itemType = typeOf(items);
  if (itemType !== 'object') {
    errors.push(
      invalid(
        pathChild(pathChild(path, 'items'), 'type'),
        itemType,
        "must be object if parent array's x-kubernetes-list-type is map",
      ),
    );
    return;
  }
  const seen = new Set<unknown>();
  for (const key of mapKeys) {
    const keySchema = typeof key === 'string' ? propertySchema(items, key) : undefined;
    if (!keySchema) {
      errors.push(
        invalid(
          pathChild(path, 'x-kubernetes-list-map-keys'),
          mapKeys,
          'entries must all be names of item properties',
        ),
      );
    } else if (typeOf(keySchema) === 'array' || typeOf(keySchema) === 'object') {
      errors.push(
        invalid(
          pathChild(properties(pathChild(path, 'items'), String(key)), 'type'),
          itemType,
          "must be a scalar type if parent array's x-kubernetes-list-type is map",
        ),
      );
    }
    if (seen.has(key)) {
      errors.push(
        invalid(
          pathChild(path, 'x-kubernetes-list-map-keys'),
          mapKeys,
          'must not contain duplicate entries',
        ),
      );
    }
    seen.add(key);
  }
}

/** Only the shape of CEL rules is checked; rules are never compiled or evaluated. */
function celRuleShapes(schema: JSONSchemaProps, path: string, errors: FieldError[]): void {
  const rules = schema['x-kubernetes-validations'];
  if (!Array.isArray(rules)) return;
  rules.forEach((rule: unknown, index) => {
    const text = isJsonObject(rule) && typeof rule.rule === 'string' ? rule.rule.trim() : '';
    if (text === '') {
      const rulePath = pathChild(
        pathIndex(pathChild(path, 'x-kubernetes-validations'), index),
        'rule',
      );
      errors.push(required(rulePath, 'rule is not specified'));
    }
  });
}

// ---- structural rules (schema.ValidateStructural) ---------------------------------------

function isIntOrStringAnyOf(list: unknown): boolean {
  if (!Array.isArray(list) || list.length !== 2) return false;
  return ['integer', 'string'].every((type, index) => {
    const entry = list[index];
    return isJsonObject(entry) && Object.keys(entry).length === 1 && entry.type === type;
  });
}

function isIntOrStringAllOf(list: unknown): boolean {
  return (
    Array.isArray(list) &&
    list.length >= 1 &&
    isJsonObject(list[0]) &&
    isIntOrStringAnyOf(list[0].anyOf)
  );
}

function valueValidation(
  schema: JSONSchemaProps,
  skipAnyOf: boolean,
  skipFirstAllOfAnyOf: boolean,
  level: Level,
  path: string,
  errors: FieldError[],
): void {
  if (!skipAnyOf && Array.isArray(schema.anyOf)) {
    schema.anyOf.forEach((child, index) => {
      nested(
        asSchema(child),
        false,
        false,
        level,
        pathIndex(pathChild(path, 'anyOf'), index),
        errors,
      );
    });
  }
  if (Array.isArray(schema.allOf)) {
    schema.allOf.forEach((child, index) => {
      const skip = skipFirstAllOfAnyOf && index === 0;
      nested(
        asSchema(child),
        skip,
        false,
        level,
        pathIndex(pathChild(path, 'allOf'), index),
        errors,
      );
    });
  }
  if (Array.isArray(schema.oneOf)) {
    schema.oneOf.forEach((child, index) => {
      nested(
        asSchema(child),
        false,
        false,
        level,
        pathIndex(pathChild(path, 'oneOf'), index),
        errors,
      );
    });
  }
  nested(asSchema(schema.not), false, false, level, pathChild(path, 'not'), errors);
  if (typeof schema.pattern === 'string' && schema.pattern !== '') {
    const compiled = compileGoPattern(schema.pattern);
    if (!compiled.ok) {
      errors.push(
        invalid(
          pathChild(path, 'pattern'),
          schema.pattern,
          `must be a valid regular expression, but isn't: ${compiled.error}`,
        ),
      );
    }
  }
}

/** A schema under allOf/anyOf/oneOf/not: value validation only, nothing structural. */
function nested(
  schema: JSONSchemaProps | undefined,
  skipAnyOf: boolean,
  skipAllOfAnyOf: boolean,
  level: Level,
  path: string,
  errors: FieldError[],
): void {
  if (!schema) return;
  valueValidation(schema, skipAnyOf, skipAllOfAnyOf, level, path, errors);
  nested(itemsSchema(schema), false, false, level, pathChild(path, 'items'), errors);
  for (const [name, child] of propertyEntries(schema)) {
    nested(child, false, false, 'field', properties(path, name), errors);
  }
  const at = (name: string) => pathChild(path, name);
  if (typeOf(schema) !== '') errors.push(forbidden(at('type'), 'must be empty to be structural'));
  if (hasAdditionalProperties(schema)) {
    errors.push(forbidden(at('additionalProperties'), 'must be undefined to be structural'));
  }
  if (defaultOf(schema) !== undefined) {
    errors.push(forbidden(at('default'), 'must be undefined to be structural'));
  }
  if (typeof schema.title === 'string' && schema.title !== '') {
    errors.push(forbidden(at('title'), 'must be empty to be structural'));
  }
  if (typeof schema.description === 'string' && schema.description !== '') {
    errors.push(forbidden(at('description'), 'must be empty to be structural'));
  }
  if (schema.nullable === true)
    errors.push(forbidden(at('nullable'), 'must be false to be structural'));
  for (const extension of [
    'x-kubernetes-preserve-unknown-fields',
    'x-kubernetes-embedded-resource',
    'x-kubernetes-int-or-string',
  ] as const) {
    if (schema[extension] === true)
      errors.push(forbidden(at(extension), 'must be false to be structural'));
  }
  const mapKeys = schema['x-kubernetes-list-map-keys'];
  if (Array.isArray(mapKeys) && mapKeys.length > 0) {
    errors.push(forbidden(at('x-kubernetes-list-map-keys'), 'must be empty to be structural'));
  }
  for (const extension of ['x-kubernetes-list-type', 'x-kubernetes-map-type'] as const) {
    if (schema[extension] !== undefined) {
      errors.push(forbidden(at(extension), 'must be undefined to be structural'));
    }
  }
  if (propertySchema(schema, 'metadata')) {
    errors.push(
      forbidden(properties(path, 'metadata'), 'must not be specified in a nested context'),
    );
  }
}

/** Whether root `metadata` says more than kube-apiserver allows (a type, name, generateName). */
function metadataSaysTooMuch(metadata: JSONSchemaProps): boolean {
  for (const [key, value] of Object.entries(metadata)) {
    if (value === undefined || key === 'type' || key === 'default') continue;
    if (key === 'properties' && isJsonObject(value)) {
      const names = Object.keys(value);
      if (names.every((name) => name === 'name' || name === 'generateName')) continue;
    }
    return true;
  }
  return false;
}

function invariants(
  schema: JSONSchemaProps,
  level: Level,
  path: string,
  errors: FieldError[],
): void {
  const type = typeOf(schema);
  const items = itemsSchema(schema);
  if (type === 'array' && !items)
    errors.push(required(pathChild(path, 'items'), 'must be specified'));
  if (items) invariants(items, 'item', pathChild(path, 'items'), errors);
  for (const [name, child] of propertyEntries(schema)) {
    invariants(child, 'field', properties(path, name), errors);
  }
  if (hasAdditionalProperties(schema)) {
    if (level === 'root') {
      errors.push(
        forbidden(pathChild(path, 'additionalProperties'), 'must not be used at the root'),
      );
    }
    const additional = additionalPropertiesSchema(schema);
    if (additional)
      invariants(additional, 'field', pathChild(path, 'additionalProperties'), errors);
  }
  const intOrString = schema['x-kubernetes-int-or-string'] === true;
  const preserve = schema['x-kubernetes-preserve-unknown-fields'] === true;
  const embedded = schema['x-kubernetes-embedded-resource'] === true;
  if (intOrString && preserve) {
    errors.push(
      invalid(
        pathChild(path, 'x-kubernetes-preserve-unknown-fields'),
        true,
        'must be false if x-kubernetes-int-or-string is true',
      ),
    );
  }
  if (intOrString && embedded) {
    errors.push(
      invalid(
        pathChild(path, 'x-kubernetes-embedded-resource'),
        true,
        'must be false if x-kubernetes-int-or-string is true',
      ),
    );
  }
  valueValidation(
    schema,
    isIntOrStringAnyOf(schema.anyOf),
    isIntOrStringAllOf(schema.allOf),
    level,
    path,
    errors,
  );

  const typePath = pathChild(path, 'type');
  if (embedded && type !== 'object') {
    const detail = 'must be object if x-kubernetes-embedded-resource is true';
    errors.push(type === '' ? required(typePath, detail) : invalid(typePath, type, detail));
  } else if (type === '' && !intOrString && !preserve) {
    const where = {
      root: 'must not be empty at the root',
      item: 'must not be empty for specified array items',
      field: 'must not be empty for specified object fields',
    };
    errors.push(required(typePath, where[level]));
  }
  if (embedded && hasAdditionalProperties(schema)) {
    errors.push(
      forbidden(
        pathChild(path, 'additionalProperties'),
        'must not be used if x-kubernetes-embedded-resource is set',
      ),
    );
  }
  if (level === 'root' && type !== '' && type !== 'object') {
    errors.push(invalid(typePath, type, 'must be object at the root'));
  }
  if (level === 'root' || embedded) {
    for (const [name, expected] of [
      ['kind', 'string'],
      ['apiVersion', 'string'],
      ['metadata', 'object'],
    ] as const) {
      const child = propertySchema(schema, name);
      if (child && typeOf(child) !== expected) {
        errors.push(
          invalid(pathChild(properties(path, name), 'type'), typeOf(child), `must be ${expected}`),
        );
      }
    }
  }
  const metadata = propertySchema(schema, 'metadata');
  if (level === 'root' && metadata && metadataSaysTooMuch(metadata)) {
    errors.push(
      forbidden(
        properties(path, 'metadata'),
        'must not specify anything other than name and generateName, but metadata is implicitly specified',
      ),
    );
  }
  const hasProperties = propertyEntries(schema).length > 0;
  if (embedded && !preserve && !hasProperties) {
    errors.push(
      required(
        pathChild(path, 'properties'),
        'must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields',
      ),
    );
  }
}

function nestedCompleteness(
  value: JSONSchemaProps | undefined,
  structural: JSONSchemaProps | undefined,
  sPath: string,
  vPath: string,
  errors: FieldError[],
): void {
  if (!value) return;
  if (!structural) {
    errors.push(required(sPath, `because it is defined in ${vPath}`));
    return;
  }
  valueCompleteness(value, structural, sPath, vPath, errors);
  nestedCompleteness(
    itemsSchema(value),
    itemsSchema(structural),
    pathChild(sPath, 'items'),
    pathChild(vPath, 'items'),
    errors,
  );
  for (const [name, child] of propertyEntries(value)) {
    const counterpart = propertySchema(structural, name);
    if (!counterpart) {
      errors.push(
        required(properties(sPath, name), `because it is defined in ${properties(vPath, name)}`),
      );
    } else {
      nestedCompleteness(
        child,
        counterpart,
        properties(sPath, name),
        properties(vPath, name),
        errors,
      );
    }
  }
}

function valueCompleteness(
  value: JSONSchemaProps,
  structural: JSONSchemaProps,
  sPath: string,
  vPath: string,
  errors: FieldError[],
): void {
  nestedCompleteness(asSchema(value.not), structural, sPath, pathChild(vPath, 'not'), errors);
  for (const junctor of ['allOf', 'anyOf', 'oneOf'] as const) {
    const list = value[junctor];
    if (!Array.isArray(list)) continue;
    list.forEach((child, index) => {
      const childPath = pathIndex(pathChild(vPath, junctor), index);
      nestedCompleteness(asSchema(child), structural, sPath, childPath, errors);
    });
  }
}

/**
 * The problems that make kube-apiserver reject `schema` as a CRD version's
 * `openAPIV3Schema`, each at its path under `path` (pass the schema's own path in the CRD,
 * e.g. `spec.versions[0].schema.openAPIV3Schema`, for messages such as
 * `spec.versions[0].schema.openAPIV3Schema.properties[spec].type: Required value: must not be
 * empty for specified object fields`). An empty list means the schema is acceptable.
 *
 * CRD schema rules come first, in schema order: known `type`s only, no `uniqueItems`,
 * `additionalProperties` and `properties` mutually exclusive, `x-kubernetes-preserve-unknown-
 * fields` only `true`, list-type, map-type and list-map-keys consistency, non-empty CEL rule
 * texts (rules are not compiled). Then the structural rules, sorted by message as
 * kube-apiserver sorts them: every node has a `type` unless int-or-string or
 * preserve-unknown-fields; the root is an object without `additionalProperties`; arrays have
 * `items`; nothing structural (type, default, description, nullable, x-kubernetes-*) under
 * allOf/anyOf/oneOf/not except the int-or-string anyOf pattern; root `metadata` restricts only
 * `name` and `generateName`; embedded resources are objects with properties or
 * preserve-unknown-fields; patterns compile; fields and items named in the root's junctors
 * exist in the structure.
 *
 * Not checked: defaults (that they validate and are pruned), CEL compilation and cost, and
 * the root's `metadata` default. Never throws; a malformed schema yields errors.
 */
export function validateStructuralSchema(schema: unknown, path = 'openAPIV3Schema'): FieldError[] {
  const errors: FieldError[] = [];
  const root = asSchema(schema);
  if (!root) {
    return [
      schema === undefined || schema === null
        ? required(path, 'must be specified')
        : invalid(path, schema, 'must be a JSON schema object'),
    ];
  }
  crdRules(root, path, errors);
  const structural: FieldError[] = [];
  invariants(root, 'root', path, structural);
  valueCompleteness(root, root, path, path, structural);
  const sorted = structural
    .map((error) => ({ error, text: formatFieldError(error) }))
    .sort((a, b) => (a.text < b.text ? -1 : a.text > b.text ? 1 : 0))
    .map(({ error }) => error);
  return [...errors, ...sorted];
}

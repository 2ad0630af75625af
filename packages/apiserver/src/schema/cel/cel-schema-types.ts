import { isJsonObject, jsonEqual } from '@ops/api';
/**
 * The CEL view of a structural schema, as kube-apiserver builds it
 * (k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel/model/schemas.go, SchemaDeclType,
 * and values.go, UnstructuredToVal): the declared type of each node, for type checking rules
 * when a CRD is written, and the value a rule's `self` is bound to.
 *
 * Types: `integer` → int, `number` → double, `boolean` → bool, `string` → string, arrays →
 * `list<items>`, objects with `additionalProperties` → `map<string, value>`, objects with
 * `properties` → an object type whose fields are the escaped property names (see
 * {@link escapeCelName}), int-or-string → dyn. A resource root (the CR itself, or an
 * `x-kubernetes-embedded-resource`) also has `apiVersion`, `kind` and `metadata` with only
 * `name` and `generateName`. Nodes of no known type (an array without items) are left out.
 * Strings of format `date` and `date-time` are timestamps, `duration` durations and `byte`
 * bytes, as in kube-apiserver; a value that does not parse stays a string (the schema's format
 * check reports it).
 */

import type { Environment } from '@marcbachmann/cel-js';
import type { JSONSchemaProps } from '@ops/api';
import { additionalPropertiesSchema, itemsSchema, propertyEntries } from '../json-value.js';
import { celDuration } from './cel-environment.js';
import { escapeCelName } from './cel-name.js';

const formatTypes: Record<string, string> = {
  date: 'google.protobuf.Timestamp',
  'date-time': 'google.protobuf.Timestamp',
  duration: 'google.protobuf.Duration',
  byte: 'bytes',
};

const metadataSchema: JSONSchemaProps = {
  type: 'object',
  properties: { name: { type: 'string' }, generateName: { type: 'string' } },
};

/**
 * The properties a node exposes to CEL: its own, and at a resource root `apiVersion`, `kind`
 * and a `metadata` reduced to `name` and `generateName`.
 */
export function celProperties(
  schema: JSONSchemaProps,
  isResourceRoot: boolean,
): [string, JSONSchemaProps][] {
  const own = propertyEntries(schema);
  if (!isResourceRoot) return own;
  const rest = own.filter(([name]) => !['apiVersion', 'kind', 'metadata'].includes(name));
  return [
    ['apiVersion', { type: 'string' }],
    ['kind', { type: 'string' }],
    ['metadata', metadataSchema],
    ...rest,
  ];
}

function isIntOrString(schema: JSONSchemaProps): boolean {
  return schema['x-kubernetes-int-or-string'] === true;
}

function isEmbedded(schema: JSONSchemaProps): boolean {
  return schema['x-kubernetes-embedded-resource'] === true;
}

/**
 * The declared CEL types of one schema, registered on `env`: object types are named `Object1`,
 * `Object2`, ... in registration order, each with `==`/`!=` by deep equality. A node's type is
 * computed once (per schema node and resource-root flag), so after a first `typeOf` of the root
 * every later lookup registers nothing, and the environment may then be cloned.
 */
export class SchemaTypes {
  private count = 0;
  private readonly declared = new Map<JSONSchemaProps, string | undefined>();
  private readonly declaredRoots = new Map<JSONSchemaProps, string | undefined>();

  constructor(private readonly env: Environment) {}

  /**
   * The CEL type of `schema` (registering what it needs), or `undefined` when kube-apiserver
   * gives it none (such nodes are invisible to rules).
   */
  typeOf(schema: JSONSchemaProps, isResourceRoot: boolean): string | undefined {
    const cache = isResourceRoot ? this.declaredRoots : this.declared;
    if (cache.has(schema)) return cache.get(schema);
    const type = this.declare(schema, isResourceRoot);
    cache.set(schema, type);
    return type;
  }

  private declare(schema: JSONSchemaProps, isResourceRoot: boolean): string | undefined {
    if (isIntOrString(schema)) return 'dyn';
    switch (schema.type) {
      case 'integer':
        return 'int';
      case 'number':
        return 'double';
      case 'boolean':
        return 'bool';
      case 'string':
        return formatTypes[String(schema.format)] ?? 'string';
      case 'array': {
        const items = itemsSchema(schema);
        const itemType = items && this.typeOf(items, isEmbedded(items));
        return itemType === undefined ? undefined : `list<${itemType}>`;
      }
      case 'object': {
        const additional = additionalPropertiesSchema(schema);
        if (additional) {
          const valueType = this.typeOf(additional, isEmbedded(additional));
          return valueType === undefined ? undefined : `map<string, ${valueType}>`;
        }
        const fields: Record<string, string> = {};
        for (const [name, child] of celProperties(schema, isResourceRoot || isEmbedded(schema))) {
          const escaped = escapeCelName(name);
          const fieldType =
            escaped === undefined ? undefined : this.typeOf(child, isEmbedded(child));
          if (escaped !== undefined && fieldType !== undefined) fields[escaped] = fieldType;
        }
        this.count += 1;
        const name = `Object${this.count}`;
        this.env
          .registerType(name, { fields })
          .registerOperator(`${name} == ${name}`, (a: unknown, b: unknown) => jsonEqual(a, b));
        return name;
      }
      default:
        return undefined;
    }
  }
}

/**
 * The value a rule sees for `value` under `schema`: integers as `bigint` (CEL's int), numbers
 * as doubles, objects with declared properties keyed by escaped name (undeclared and
 * unescapable properties dropped), maps and lists converted item by item, int-or-string and
 * untyped values converted by their JSON kind. Never throws.
 */
export function celValueOf(
  schema: JSONSchemaProps | undefined,
  value: unknown,
  isResourceRoot = false,
): unknown {
  if (value === null || value === undefined) return null;
  if (schema === undefined || isIntOrString(schema)) return dynValueOf(value);
  if (Array.isArray(value)) {
    const items = itemsSchema(schema);
    return value.map((item) => celValueOf(items, item, items ? isEmbedded(items) : false));
  }
  if (isJsonObject(value)) {
    const additional = additionalPropertiesSchema(schema);
    if (additional) {
      const map: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(value)) {
        map[key] = celValueOf(additional, item, isEmbedded(additional));
      }
      return map;
    }
    const object: Record<string, unknown> = {};
    for (const [name, child] of celProperties(schema, isResourceRoot || isEmbedded(schema))) {
      const escaped = escapeCelName(name);
      if (escaped === undefined || !Object.hasOwn(value, name)) continue;
      object[escaped] = celValueOf(child, value[name], isEmbedded(child));
    }
    return object;
  }
  if (typeof value === 'number' && schema.type === 'integer' && Number.isInteger(value)) {
    return BigInt(value);
  }
  if (typeof value === 'string' && schema.type === 'string') return formattedValue(schema, value);
  return value;
}

function formattedValue(schema: JSONSchemaProps, value: string): unknown {
  switch (schema.format) {
    case 'date':
    case 'date-time': {
      const date = new Date(value);
      return Number.isNaN(date.getTime()) ? value : date;
    }
    case 'duration':
      return celDuration(value) ?? value;
    case 'byte':
      return /^[A-Za-z0-9+/]*={0,2}$/.test(value)
        ? new Uint8Array(Buffer.from(value, 'base64'))
        : value;
    default:
      return value;
  }
}

function dynValueOf(value: unknown): unknown {
  if (typeof value === 'number') return Number.isInteger(value) ? BigInt(value) : value;
  if (Array.isArray(value)) return value.map(dynValueOf);
  if (isJsonObject(value)) {
    const object: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) object[key] = dynValueOf(item);
    return object;
  }
  return value;
}

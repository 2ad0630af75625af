import { isJsonObject } from '@ops/api';
/**
 * Helpers for the JSON values and untrusted schemas the schema functions walk: type tests,
 * deep equality and copies as Go's `reflect.DeepEqual` and `runtime.DeepCopyJSONValue` treat
 * JSON, and Go's `%v` rendering of numbers. Internal to this directory.
 */

import type { JSONSchemaProps } from '@ops/api';

/** `value` as a schema node, or undefined when it is not an object. */
export function asSchema(value: unknown): JSONSchemaProps | undefined {
  return isJsonObject(value) ? (value as JSONSchemaProps) : undefined;
}

/** The schema of property `name` of `schema`, if `schema.properties` declares it. */
export function propertySchema(
  schema: JSONSchemaProps | undefined,
  name: string,
): JSONSchemaProps | undefined {
  const properties = schema?.properties;
  if (!isJsonObject(properties) || !Object.hasOwn(properties, name)) return undefined;
  return asSchema(properties[name]);
}

/** The declared properties of `schema` as `[name, schema]` pairs, skipping malformed entries. */
export function propertyEntries(schema: JSONSchemaProps | undefined): [string, JSONSchemaProps][] {
  const properties = schema?.properties;
  if (!isJsonObject(properties)) return [];
  const entries: [string, JSONSchemaProps][] = [];
  for (const [name, value] of Object.entries(properties)) {
    const child = asSchema(value);
    if (child) entries.push([name, child]);
  }
  return entries;
}

/** Whether `schema.properties` declares `name`. */
export function declaresProperty(schema: JSONSchemaProps | undefined, name: string): boolean {
  const properties = schema?.properties;
  return isJsonObject(properties) && Object.hasOwn(properties, name);
}

/** The schema of array items, if any. */
export function itemsSchema(schema: JSONSchemaProps | undefined): JSONSchemaProps | undefined {
  return asSchema(schema?.items);
}

/** The `additionalProperties` schema, if it is a schema (not a boolean). */
export function additionalPropertiesSchema(
  schema: JSONSchemaProps | undefined,
): JSONSchemaProps | undefined {
  return asSchema(schema?.additionalProperties);
}

/** Whether `additionalProperties` is set at all (a schema or a boolean). */
export function hasAdditionalProperties(schema: JSONSchemaProps | undefined): boolean {
  const additional = schema?.additionalProperties;
  return typeof additional === 'boolean' || isJsonObject(additional);
}

/** The schema's `default`, or undefined when there is none (`null` counts as none, as in Go). */
export function defaultOf(schema: JSONSchemaProps | undefined): unknown {
  if (!schema || !Object.hasOwn(schema, 'default')) return undefined;
  return schema.default === null ? undefined : schema.default;
}

/** A number option of a schema, if it is a finite number. */
export function numberOption(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** The schemas of a junctor (`allOf`, `anyOf`, `oneOf`), skipping malformed entries. */
export function schemaList(value: unknown): JSONSchemaProps[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((entry) => {
    const schema = asSchema(entry);
    return schema ? [schema] : [];
  });
}

/** The JSON type of a value as kube-openapi infers it: `integer` for whole numbers. */
export type SchemaValueKind =
  | 'null'
  | 'boolean'
  | 'integer'
  | 'number'
  | 'string'
  | 'array'
  | 'object';

/** The JSON kind of `value`; undefined (not JSON) for `undefined`, functions and symbols. */
export function jsonKind(value: unknown): SchemaValueKind | undefined {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'boolean':
      return 'boolean';
    case 'string':
      return 'string';
    case 'number':
      return Number.isInteger(value) ? 'integer' : 'number';
    case 'bigint':
      return 'integer';
    case 'object':
      return Array.isArray(value) ? 'array' : 'object';
    default:
      return undefined;
  }
}

/** A deep copy of a JSON value (objects and arrays copied, scalars shared). */
export function jsonCopy<T>(value: T): T {
  if (Array.isArray(value)) return value.map((item) => jsonCopy(item)) as T;
  if (isJsonObject(value)) {
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) copy[key] = jsonCopy(item);
    return copy as T;
  }
  return value;
}

/** A canonical JSON text for a value (sorted keys), for set membership of compound values. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (isJsonObject(value)) {
    const keys = Object.keys(value)
      .filter((key) => value[key] !== undefined)
      .sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key])}`).join(',')}}`;
  }
  if (typeof value === 'bigint') return value.toString();
  return JSON.stringify(value) ?? 'null';
}

/**
 * A number as Go's `%v` prints a float64: shortest representation, exponent form below 1e-4
 * and from 1e21 up, with at least two exponent digits (`1e-05`, `1e+21`).
 */
export function goNumber(value: number): string {
  const magnitude = Math.abs(value);
  if (!Number.isFinite(value)) {
    if (Number.isNaN(value)) return 'NaN';
    return value > 0 ? '+Inf' : '-Inf';
  }
  if (magnitude !== 0 && (magnitude < 1e-4 || magnitude >= 1e21)) {
    const [mantissa = '', exponent = '0'] = value.toExponential().split('e');
    const sign = exponent.startsWith('-') ? '-' : '+';
    const digits = exponent.replace(/^[+-]/, '').padStart(2, '0');
    return `${mantissa}e${sign}${digits}`;
  }
  return String(value);
}

/** The number of Unicode code points in a string (Go's `utf8.RuneCountInString`). */
export function runeCount(value: string): number {
  let count = 0;
  for (const _ of value) count++;
  return count;
}

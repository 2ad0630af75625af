/**
 * Conversion of TypeBox (JSON Schema) schemas to Kubernetes structural schemas, the
 * `openAPIV3Schema` dialect of `apiextensions.k8s.io/v1`: every node has a `type` (or is
 * int-or-string, or preserves unknown fields), maps are `additionalProperties`, unions of
 * literals are `enum`, `T | null` is `nullable`, and nothing refers elsewhere (`$ref`).
 */

import { isJsonObject, type JSONSchemaProps } from '@ops/api';
import { Kind, type TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { StructuralSchemaError } from '../errors/structural-schema-error.js';
import {
  embeddedResourceKeyword,
  intOrStringKeyword,
  preserveUnknownFieldsKeyword,
} from './kubernetes-schema-types.js';
import { valueSchemaOf } from './value-schema.js';

/** Options of {@link toStructuralSchema}. */
export interface StructuralSchemaOptions {
  /** Where the schema sits in the object, for error messages: `spec`. Default: the root. */
  path?: string;
}

/** Keywords copied as they are: documentation and value validations Kubernetes knows. */
const copiedKeywords = new Set([
  'title',
  'description',
  'default',
  'example',
  'format',
  'minimum',
  'maximum',
  'multipleOf',
  'minLength',
  'maxLength',
  'pattern',
  'minItems',
  'maxItems',
  'minProperties',
  'maxProperties',
  'enum',
  'nullable',
  'externalDocs',
  'x-kubernetes-list-type',
  'x-kubernetes-list-map-keys',
  'x-kubernetes-map-type',
  'x-kubernetes-validations',
  preserveUnknownFieldsKeyword,
  embeddedResourceKeyword,
]);

/** Keywords consumed by the conversion itself (or meaningless to Kubernetes and dropped). */
const structuralKeywords = new Set([
  'type',
  'properties',
  'required',
  'additionalProperties',
  'patternProperties',
  'items',
  'anyOf',
  'const',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'uniqueItems',
  intOrStringKeyword,
  '$id',
  '$schema',
]);

/** Hints for keywords and TypeBox kinds that have no structural equivalent. */
const unsupportedKeywords: Record<string, string> = {
  $ref: 'references ($ref, Type.Ref, Type.Recursive) cannot be expressed: inline the schema',
  $defs: 'definitions ($defs, Type.Module) cannot be expressed: inline the schema',
  definitions: 'definitions cannot be expressed: inline the schema',
  allOf:
    'allOf (Type.Intersect) cannot be expressed: merge the objects with Type.Composite instead',
  oneOf: 'oneOf cannot be expressed: use a union of literals, or one object with optional fields',
  not: 'not (Type.Not, Type.Never) cannot be expressed',
  examples: 'examples is not a Kubernetes keyword: use example (one value)',
  additionalItems: 'tuples (additionalItems) cannot be expressed: use an array of one type',
  readOnly: 'readOnly is not a Kubernetes keyword: use an x-kubernetes-validations rule',
  writeOnly: 'writeOnly is not a Kubernetes keyword',
};

const unsupportedKinds: Record<string, string> = {
  Tuple: 'tuples (Type.Tuple) cannot be expressed: use an array of one type or an object',
  Date: "Date is not JSON: use Type.String({ format: 'date-time' })",
  Uint8Array: "Uint8Array is not JSON: use Type.String({ format: 'byte' })",
  BigInt: "bigint is not JSON: use Type.Integer({ format: 'int64' })",
  RegExp: 'RegExp values are not JSON: use Type.String({ pattern })',
  Undefined: 'undefined is not JSON: make the property Type.Optional instead',
  Void: 'void is not JSON',
  Symbol: 'symbols are not JSON',
  Function: 'functions are not JSON',
  Constructor: 'constructors are not JSON',
  Promise: 'promises are not JSON',
  AsyncIterator: 'iterators are not JSON',
  Iterator: 'iterators are not JSON',
  Never: 'Type.Never accepts no value',
  This: 'recursive schemas (Type.Recursive) cannot be expressed',
  Ref: 'references (Type.Ref) cannot be expressed: inline the schema',
};

const scalarTypes = new Set(['string', 'integer', 'number', 'boolean']);
const anyKeyPatterns = new Set(['^(.*)$', '^.*$', '.*']);

/**
 * Converts a TypeBox schema to a Kubernetes structural schema, as it goes under
 * `openAPIV3Schema` (or one of its properties). The result is a new plain JSON object with
 * its keys sorted; the input is not modified.
 *
 * Mapping: `Type.Integer` → `type: integer` (its `format`, e.g. `int32`, kept); a union of
 * literals (`Type.Union([Type.Literal('a'), ...])`, `Type.Enum`, `Type.KeyOf`) → `enum` of
 * one type; `Type.Literal` → a one-value `enum`; `T | null` → `nullable: true`; an
 * `Integer | String` union or {@link IntOrString} → int-or-string;
 * `Type.Record(Type.String(), T)` → `additionalProperties`; `Type.Optional` properties are
 * left out of `required`; a numeric `exclusiveMinimum`/`exclusiveMaximum` becomes
 * `minimum`/`maximum` with the boolean flag; `additionalProperties: false` is dropped (the
 * API server prunes undeclared fields anyway); `$id`, `$schema` and TypeBox's symbols are
 * dropped. Documentation, `default`, `example`, value validations (`minimum`, `maxLength`,
 * `pattern`, `minItems`, ...) and the `x-kubernetes-*` extensions are kept.
 *
 * @throws {StructuralSchemaError} naming the path of the first construct Kubernetes cannot
 * express: `$ref`, tuples, `allOf`/`oneOf`/`not`, unions of different types, nodes without
 * a type (`Type.Unknown`, `Type.Any`; use {@link PreserveUnknownFields}), non-JSON types,
 * `uniqueItems: true`, unknown keywords, or a `default` the schema itself rejects.
 */
export function toStructuralSchema(
  schema: TSchema,
  options: StructuralSchemaOptions = {},
): JSONSchemaProps {
  return sortKeys(convert(schema, options.path ?? '')) as JSONSchemaProps;
}

type Node = Record<string, unknown> & { [Kind]?: unknown };

function fail(path: string, problem: string): never {
  throw new StructuralSchemaError(`schema at ${path || '(root)'}: ${problem}`, path);
}

function convert(schema: unknown, path: string): JSONSchemaProps {
  if (!isJsonObject(schema)) {
    fail(path, `expected a schema object, got ${JSON.stringify(schema)}`);
  }
  const node = schema as Node;
  const kind = node[Kind];
  if (typeof kind === 'string' && kind in unsupportedKinds)
    fail(path, unsupportedKinds[kind] ?? kind);
  for (const key of Object.keys(node)) {
    const hint = unsupportedKeywords[key];
    if (hint !== undefined) fail(path, hint);
    if (!copiedKeywords.has(key) && !structuralKeywords.has(key)) {
      fail(
        path,
        `unknown keyword ${JSON.stringify(key)}: Kubernetes structural schemas do not support it`,
      );
    }
  }
  const result = convertShape(node, path);
  checkDefault(node, path);
  return result;
}

/** The type-determining part of a node, plus its copied keywords. */
function convertShape(node: Node, path: string): JSONSchemaProps {
  if (Array.isArray(node.anyOf)) return convertUnion(node, node.anyOf, path);
  if ('const' in node) return convertLiteral(node, path);
  const type = node.type;
  if (type === undefined) {
    if (node[preserveUnknownFieldsKeyword] === true) return copyKeywords(node, {}, path);
    const kind = typeof node[Kind] === 'string' ? ` (Type.${String(node[Kind])})` : '';
    fail(
      path,
      `a value of any type${kind} cannot be expressed: Kubernetes needs a type on every field; use PreserveUnknownFields() for free-form objects`,
    );
  }
  if (type === 'object') return convertObject(node, path);
  if (type === 'array') return convertArray(node, path);
  if (typeof type === 'string' && scalarTypes.has(type)) {
    return copyKeywords(node, { type: type as JSONSchemaProps['type'] }, path);
  }
  if (type === 'null') fail(path, 'a null-only value cannot be expressed: use T | null');
  if (Array.isArray(type)) {
    fail(path, `a list of types ${JSON.stringify(type)} cannot be expressed: use one type`);
  }
  fail(path, `type ${JSON.stringify(type)} is not a JSON type`);
}

function convertObject(node: Node, path: string): JSONSchemaProps {
  const result: JSONSchemaProps = { type: 'object' };
  const preserve = node[preserveUnknownFieldsKeyword] === true;
  const embedded = node[embeddedResourceKeyword] === true;
  const properties = node.properties;
  let hasProperties = false;
  if (properties !== undefined) {
    if (typeof properties !== 'object' || properties === null) {
      fail(path, 'properties must be an object of schemas');
    }
    const converted: Record<string, JSONSchemaProps> = {};
    for (const [name, property] of Object.entries(properties)) {
      // Kubernetes checks apiVersion, kind and metadata of an embedded resource itself.
      if (embedded && (name === 'apiVersion' || name === 'kind' || name === 'metadata')) continue;
      converted[name] = convert(property, joinPath(path, name));
    }
    if (Object.keys(converted).length > 0) {
      result.properties = converted;
      hasProperties = true;
      const required = Array.isArray(node.required)
        ? node.required.filter(
            (name): name is string => typeof name === 'string' && name in converted,
          )
        : [];
      if (required.length > 0) result.required = required;
    }
  }
  const additional = node.additionalProperties;
  if (additional === true) {
    fail(
      path,
      'additionalProperties: true cannot be expressed: use PreserveUnknownFields() to keep undeclared fields',
    );
  }
  if (typeof additional === 'object' && additional !== null) {
    if (hasProperties) {
      fail(path, 'properties and additionalProperties cannot be combined in Kubernetes');
    }
    result.additionalProperties = convert(additional, `${path}.*`);
  }
  const patterns = node.patternProperties;
  if (typeof patterns === 'object' && patterns !== null) {
    const entries = Object.entries(patterns);
    const [first] = entries;
    if (entries.length !== 1 || first === undefined || !anyKeyPatterns.has(first[0])) {
      fail(
        path,
        `patternProperties ${JSON.stringify(entries.map(([pattern]) => pattern))} cannot be expressed: only Type.Record(Type.String(), T) maps are supported`,
      );
    }
    const [, value] = first;
    const anyValue = typeof value === 'object' && value !== null && Object.keys(value).length === 0;
    if (!(preserve && anyValue)) {
      if (hasProperties || result.additionalProperties !== undefined) {
        fail(path, 'properties and a map of values cannot be combined in Kubernetes');
      }
      result.additionalProperties = convert(value, `${path}.*`);
    }
  }
  return copyKeywords(node, result, path);
}

function convertArray(node: Node, path: string): JSONSchemaProps {
  const items = node.items;
  if (Array.isArray(items)) {
    fail(path, 'tuples (Type.Tuple) cannot be expressed: use an array of one type or an object');
  }
  if (items === undefined) fail(path, 'an array needs an item schema (items)');
  return copyKeywords(node, { type: 'array', items: convert(items, `${path}[*]`) }, path);
}

function convertLiteral(node: Node, path: string): JSONSchemaProps {
  const value = node.const;
  return copyKeywords(node, { type: jsonTypeOf(value, path), enum: [value] }, path);
}

function convertUnion(node: Node, members: unknown[], path: string): JSONSchemaProps {
  const schemas = members.map((member, index) => {
    if (typeof member !== 'object' || member === null) {
      fail(path, `anyOf[${index}] must be a schema object`);
    }
    return member as Node;
  });
  const nonNull = schemas.filter((member) => member.type !== 'null');
  const nullable = nonNull.length < schemas.length;
  const extra: JSONSchemaProps = nullable ? { nullable: true } : {};

  const types = new Set(nonNull.map((member) => member.type));
  const isIntOrString =
    node[intOrStringKeyword] === true ||
    (nonNull.length === 2 &&
      types.has('integer') &&
      types.has('string') &&
      nonNull.every((member) => !('const' in member)));
  if (isIntOrString) {
    if (
      nonNull.length !== 2 ||
      !types.has('integer') ||
      !types.has('string') ||
      nonNull.some((member) => Object.keys(member).some((key) => key !== 'type'))
    ) {
      fail(
        path,
        'an int-or-string value must be exactly Type.Union([Type.Integer(), Type.String()]) (use IntOrString()); put value validations on the union itself',
      );
    }
    return copyKeywords(
      node,
      {
        ...extra,
        anyOf: [{ type: 'integer' }, { type: 'string' }],
        'x-kubernetes-int-or-string': true,
      },
      path,
    );
  }

  if (nonNull.length > 0 && nonNull.every((member) => 'const' in member)) {
    const values: unknown[] = [];
    for (const member of nonNull) {
      if (!values.includes(member.const)) values.push(member.const);
    }
    const memberTypes = new Set(values.map((value) => jsonTypeOf(value, path)));
    if (memberTypes.size > 1) {
      if (memberTypes.size === 2 && memberTypes.has('integer') && memberTypes.has('number')) {
        return copyKeywords(node, { ...extra, type: 'number', enum: values }, path);
      }
      fail(
        path,
        `a union of literals of different types (${[...memberTypes].join(', ')}) cannot be expressed: use literals of one type`,
      );
    }
    const [type] = memberTypes;
    return copyKeywords(node, { ...extra, type, enum: values }, path);
  }

  const [only] = nonNull;
  if (nonNull.length === 1 && only !== undefined) {
    // `T | null`: T with nullable, the union's own keywords (description, ...) on top.
    return copyKeywords(node, { ...convert(only, path), ...extra }, path);
  }
  const described = nonNull.map((member) => {
    if ('const' in member) return JSON.stringify(member.const);
    return typeof member.type === 'string' ? member.type : String(member[Kind] ?? 'unknown');
  });
  fail(
    path,
    `a union of different types (${described.join(' | ')}) cannot be expressed: Kubernetes allows only unions of literals (enum), IntOrString() and T | null`,
  );
}

/** Adds the copied keywords of `node` to `result`, translating draft-2019 spellings. */
function copyKeywords(node: Node, result: JSONSchemaProps, path: string): JSONSchemaProps {
  const out = result as Record<string, unknown>;
  for (const key of Object.keys(node)) {
    if (copiedKeywords.has(key)) out[key] = structuredClone(node[key]);
  }
  for (const [exclusive, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    const value = node[exclusive];
    if (value === undefined) continue;
    if (typeof value === 'number') {
      if (node[bound] !== undefined) {
        fail(path, `${exclusive} and ${bound} cannot both be numbers: keep one bound`);
      }
      out[bound] = value;
      out[exclusive] = true;
    } else if (typeof value === 'boolean') {
      if (node[bound] === undefined) fail(path, `${exclusive}: ${value} needs ${bound}`);
      if (value) out[exclusive] = true;
    } else {
      fail(path, `${exclusive} must be a number`);
    }
  }
  if (node.uniqueItems === true) {
    fail(
      path,
      "uniqueItems: true is forbidden by Kubernetes: use { 'x-kubernetes-list-type': 'set' }",
    );
  }
  return result;
}

/** Rejects a `default` that the node's own TypeBox schema does not accept. */
function checkDefault(node: Node, path: string): void {
  if (!('default' in node) || typeof node[Kind] !== 'string') return;
  let valid: boolean;
  try {
    valid = Value.Check(valueSchemaOf(node as unknown as TSchema), node.default);
  } catch {
    // A kind TypeBox cannot check (e.g. Type.Unsafe): the API server checks the default.
    return;
  }
  if (!valid) {
    fail(path, `default ${JSON.stringify(node.default)} does not match the schema`);
  }
}

function jsonTypeOf(value: unknown, path: string): NonNullable<JSONSchemaProps['type']> {
  if (typeof value === 'string') return 'string';
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return fail(path, `literal ${String(value)} is not a string, number or boolean`);
}

function joinPath(path: string, name: string): string {
  const segment = /^[A-Za-z_$][\w$-]*$/.test(name) ? name : JSON.stringify(name);
  return path ? `${path}.${segment}` : segment;
}

/** A deep copy of JSON `value` with every object's keys in code-unit order. */
export function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (typeof value !== 'object' || value === null) return value;
  const sorted: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    sorted[key] = sortKeys((value as Record<string, unknown>)[key]);
  }
  return sorted;
}

import { isJsonObject } from '@ops/api';
import { builtinComponents, type OpenApiSchema, wellKnownComponents } from './builtin-openapi.js';

/** What {@link checkBuiltinObject} found. */
export interface BuiltinCheck {
  /**
   * The first value of the wrong JSON type, worded as Go's encoding/json words it (kube-apiserver
   * decodes built-in kinds into Go structs): `json: cannot unmarshal string into Go struct field
   * ReplicaSetSpec.spec.replicas of type int32`. Undefined when every value fits.
   */
  typeError?: string;
  /** Paths of the fields the schema does not declare (`spec.template.spec.containers[0].bar`), in document order. */
  unknownFields: string[];
}

const refPrefix = '#/components/schemas/';
const int32 = { min: -(2 ** 31), max: 2 ** 31 - 1 };
const int64 = { min: -(2 ** 63), max: 2 ** 63 };

const goTypeOfComponent: Record<string, string> = {
  [wellKnownComponents.Quantity]: 'resource.Quantity',
  [wellKnownComponents.IntOrString]: 'intstr.IntOrString',
  [wellKnownComponents.Time]: 'v1.Time',
  [wellKnownComponents.MicroTime]: 'v1.MicroTime',
  [wellKnownComponents.Duration]: 'v1.Duration',
  [wellKnownComponents.RawExtension]: 'runtime.RawExtension',
  [wellKnownComponents.FieldsV1]: 'v1.FieldsV1',
};

function jsonType(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'boolean') return 'bool';
  return typeof value === 'object' ? 'object' : typeof value;
}

const componentOf = (schema: OpenApiSchema): string | undefined =>
  typeof schema.$ref === 'string' ? schema.$ref.slice(refPrefix.length) : undefined;

/** The Go type a schema decodes into, as Go prints it in errors. */
function goType(schema: OpenApiSchema): string {
  const component = componentOf(schema);
  if (component !== undefined)
    return goTypeOfComponent[component] ?? `v1.${component.slice(component.lastIndexOf('.') + 1)}`;
  switch (schema.type) {
    case 'array':
      return `[]${goType(schema.items as OpenApiSchema)}`;
    case 'object':
      return `map[string]${goType(schema.additionalProperties as OpenApiSchema)}`;
    case 'boolean':
      return 'bool';
    case 'number':
      return 'float64';
    case 'integer':
      return String(schema.format ?? 'int64');
    default:
      return schema.format === 'byte' ? '[]uint8' : 'string';
  }
}

interface Walk {
  /** Go's view: the struct holding the current field, and the dotted path without indices. */
  struct: string;
  goPath: string;
  /** The path with list indices, for unknown-field reports. */
  path: string;
}

/**
 * Checks a built-in object against its published OpenAPI schema (see `builtinKindSchema`) as
 * kube-apiserver's JSON decoder does, and removes the fields the schema does not declare (a Go
 * struct cannot hold them): JSON types per field (a string where `int32` is declared, labels as
 * a string, `finalizers: "x"`), integer formats' ranges (`int32`), `int-or-string`, quantities
 * as strings or numbers, maps and lists item by item. `null` fits any field. Stops at the first
 * type error, as Go does; with `prune`, removes the unknown fields when there is none.
 */
export function checkBuiltinObject(
  kind: string,
  schema: OpenApiSchema,
  object: Record<string, unknown>,
  options: { prune?: boolean } = {},
): BuiltinCheck {
  const components = builtinComponents();
  const unknownFields: string[] = [];
  const removals: Array<() => void> = [];
  const resolve = (s: OpenApiSchema): OpenApiSchema => {
    const component = componentOf(s);
    return component === undefined ? s : (components[component] ?? {});
  };
  const join = (base: string, field: string) => (base ? `${base}.${field}` : field);

  const visit = (value: unknown, declared: OpenApiSchema, at: Walk): string | undefined => {
    if (value === null) return undefined;
    const schema = resolve(declared);
    const mismatch = (literal = false) =>
      `json: cannot unmarshal ${jsonType(value)}${literal ? ` ${String(value)}` : ''} into Go struct field ${at.struct}.${at.goPath} of type ${goType(declared)}`;
    if (schema['x-kubernetes-preserve-unknown-fields'] === true) return undefined;
    const component = componentOf(declared);
    if (component === wellKnownComponents.Quantity)
      return typeof value === 'string' || typeof value === 'number' ? undefined : mismatch();
    if (schema.format === 'int-or-string')
      return typeof value === 'string' || (typeof value === 'number' && Number.isInteger(value))
        ? undefined
        : mismatch(typeof value === 'number');
    switch (schema.type) {
      case 'string':
        return typeof value === 'string' ? undefined : mismatch();
      case 'boolean':
        return typeof value === 'boolean' ? undefined : mismatch();
      case 'number':
        return typeof value === 'number' ? undefined : mismatch();
      case 'integer': {
        if (typeof value !== 'number') return mismatch();
        const range = schema.format === 'int32' ? int32 : int64;
        const unsigned = String(schema.format ?? '').startsWith('uint');
        const fits =
          Number.isInteger(value) && value >= (unsigned ? 0 : range.min) && value < range.max + 1;
        return fits ? undefined : mismatch(true);
      }
      case 'array': {
        if (!Array.isArray(value)) return mismatch();
        for (const [index, item] of value.entries()) {
          const error = visit(item, schema.items as OpenApiSchema, {
            ...at,
            path: `${at.path}[${index}]`,
          });
          if (error !== undefined) return error;
        }
        return undefined;
      }
      default: {
        if (!isJsonObject(value)) return mismatch();
        const record = value;
        const values = schema.additionalProperties as OpenApiSchema | undefined;
        if (values !== undefined) {
          for (const [key, item] of Object.entries(record)) {
            const error = visit(item, values, { ...at, path: `${at.path}[${key}]` });
            if (error !== undefined) return error;
          }
          return undefined;
        }
        const properties = (schema.properties ?? {}) as Record<string, OpenApiSchema>;
        const struct =
          component === undefined ? at.struct : component.slice(component.lastIndexOf('.') + 1);
        for (const [key, item] of Object.entries(record)) {
          const path = join(at.path, key);
          const property = properties[key];
          if (property === undefined) {
            unknownFields.push(path);
            removals.push(() => delete record[key]);
            continue;
          }
          const error = visit(item, property, { struct, goPath: join(at.goPath, key), path });
          if (error !== undefined) return error;
        }
        return undefined;
      }
    }
  };

  const typeError = visit(object, schema, { struct: kind, goPath: '', path: '' });
  if (typeError !== undefined) return { typeError, unknownFields: [] };
  if (options.prune) for (const remove of removals) remove();
  return { unknownFields };
}

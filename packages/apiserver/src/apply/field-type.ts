/**
 * The shape server-side apply needs to know of an object, as structured-merge-diff's schema
 * gives it (sigs.k8s.io/structured-merge-diff schema/elements.go): which maps are granular
 * (each field owned on its own) or atomic (owned whole), which lists are atomic, sets or maps
 * by key (`x-kubernetes-list-type`, `x-kubernetes-list-map-keys`, `x-kubernetes-map-type`),
 * and which map keys are declared fields (a struct's) rather than entries of a map.
 *
 * Built from a CRD's structural schema ({@link fieldTypeFromSchema}) or, for the built-in
 * kinds, from their patch metadata ({@link fieldTypeFromStrategicSchema}): the published
 * OpenAPI of k8s.io/api marks the lists that carry a `patchMergeKey` as `map` lists by that
 * key (a few by two keys) and the keyless merge lists as `set`s, every other list is atomic,
 * and label selectors are atomic structs.
 */
import type { JSONSchemaProps } from '@ops/api';
import { isJsonObject } from '@ops/api';
import { objectMetaSchema } from '../patch/builtin-schemas.js';
import { mergesLists, type StrategicSchema } from '../patch/strategic-schema.js';

/** A string, number, boolean or null: owned as a whole. */
export interface ApplyScalarType {
  readonly kind: 'scalar';
}

/** A list: `atomic` (owned whole), a `set` of scalars, or a `map` of objects by `keys`. */
export interface ApplyListType {
  readonly kind: 'list';
  readonly listType: 'atomic' | 'set' | 'map';
  /** For `map` lists: the item fields that identify an item. */
  readonly keys: readonly string[];
  /** Values of key fields an item may omit (`protocol: TCP` for ports). */
  readonly keyDefaults: Readonly<Record<string, unknown>>;
  readonly item: FieldType;
}

/** A field of a map type: its type, and whether it is a declared (struct) field. */
export interface ApplyMapField {
  readonly type: FieldType;
  /** False for entries of a map (`additionalProperties`, unknown fields): they are members. */
  readonly declared: boolean;
}

/** An object: granular unless atomic. */
export interface ApplyMapType {
  readonly kind: 'map';
  readonly atomic: boolean;
  field(name: string): ApplyMapField;
}

/**
 * A value whose type comes from the value itself, as structured-merge-diff's `deduced` type:
 * objects are granular maps, lists atomic, the rest scalars. With `structs`, an object's keys
 * count as declared fields (the built-in kinds' structs); without, as map entries (the fields
 * a CRD's `x-kubernetes-preserve-unknown-fields` keeps).
 */
export interface ApplyUntypedType {
  readonly kind: 'untyped';
  readonly structs: boolean;
}

/** The type of a value for server-side apply. */
export type FieldType = ApplyScalarType | ApplyListType | ApplyMapType | ApplyUntypedType;

/** The scalar type. */
export const scalarType: ApplyScalarType = { kind: 'scalar' };
/** Untyped values whose objects are maps of undeclared entries. */
export const deducedType: ApplyUntypedType = { kind: 'untyped', structs: false };
/** Untyped values whose objects are structs (declared fields). */
export const untypedStructs: ApplyUntypedType = { kind: 'untyped', structs: true };

const atomicList = (item: FieldType): ApplyListType => ({
  kind: 'list',
  listType: 'atomic',
  keys: [],
  keyDefaults: {},
  item,
});

/** A granular map whose fields are all declared, typed by `fields` or untyped structs. */
export function structType(
  fields: Readonly<Record<string, FieldType>> = {},
  atomic = false,
): ApplyMapType {
  return {
    kind: 'map',
    atomic,
    field(name) {
      if (Object.hasOwn(fields, name)) return { type: fields[name] as FieldType, declared: true };
      return { type: isSelectorField(name) ? atomicStruct : untypedStructs, declared: true };
    },
  };
}

/** k8s.io/api marks `LabelSelector` (`+structType=atomic`) and node selectors atomic. */
function isSelectorField(name: string): boolean {
  return name === 'selector' || name.endsWith('Selector');
}

const atomicStruct: ApplyMapType = {
  kind: 'map',
  atomic: true,
  field: () => ({ type: untypedStructs, declared: true }),
};

/**
 * The type a value of an untyped type takes: an object a map (struct or not), a list atomic,
 * anything else a scalar. Typed types are returned as they are.
 */
export function resolveType(type: FieldType, value: unknown): Exclude<FieldType, ApplyUntypedType> {
  if (type.kind !== 'untyped') return type;
  if (Array.isArray(value)) return atomicList(type);
  if (typeof value === 'object' && value !== null) {
    if (type.structs) return structType();
    return { kind: 'map', atomic: false, field: () => ({ type: deducedType, declared: false }) };
  }
  return scalarType;
}

/**
 * Built-in lists whose OpenAPI map keys are more than the patch merge key, with the defaults
 * of the keys an item may omit (k8s.io/api core/v1 types.go `+listMapKey` tags).
 */
const multiKeyLists: Readonly<
  Record<string, { keys: string[]; defaults: Record<string, unknown> }>
> = {
  containerPort: { keys: ['containerPort', 'protocol'], defaults: { protocol: 'TCP' } },
  port: { keys: ['port', 'protocol'], defaults: { protocol: 'TCP' } },
  topologyKey: { keys: ['topologyKey', 'whenUnsatisfiable'], defaults: {} },
};

/** The type of a built-in kind (or part of one) from its strategic merge patch metadata. */
export function fieldTypeFromStrategicSchema(schema: StrategicSchema | undefined): ApplyMapType {
  const fields: Record<string, FieldType> = {};
  for (const [name, field] of Object.entries(schema?.fields ?? {})) {
    const nested = field.schema ? fieldTypeFromStrategicSchema(field.schema) : untypedStructs;
    if (!mergesLists(field)) {
      fields[name] = nested;
    } else if (field.patchMergeKey === undefined) {
      fields[name] = { kind: 'list', listType: 'set', keys: [], keyDefaults: {}, item: scalarType };
    } else {
      const multi = multiKeyLists[field.patchMergeKey];
      fields[name] = {
        kind: 'list',
        listType: 'map',
        keys: multi?.keys ?? [field.patchMergeKey],
        keyDefaults: multi?.defaults ?? {},
        item: nested,
      };
    }
  }
  return structType(fields);
}

/** `metav1.ObjectMeta`: ownerReferences by uid, finalizers a set, the rest granular. */
export const objectMetaType: ApplyMapType = fieldTypeFromStrategicSchema(objectMetaSchema);

/**
 * The type a CRD's structural schema gives a value: `properties` are declared fields,
 * `additionalProperties` entries and fields kept by `x-kubernetes-preserve-unknown-fields`
 * are map entries, arrays follow `x-kubernetes-list-type` (atomic by default) with
 * `x-kubernetes-list-map-keys` (and the keys' defaults), objects `x-kubernetes-map-type`.
 * `x-kubernetes-embedded-resource` objects get ObjectMeta's type for `metadata`.
 */
export function fieldTypeFromSchema(schema: JSONSchemaProps | undefined): FieldType {
  if (schema === undefined) return deducedType;
  if (schema['x-kubernetes-int-or-string'] === true) return scalarType;
  const type = schema.type;
  if (type === 'array' || (type === undefined && isJsonObject(schema.items))) {
    const items = isJsonObject(schema.items) ? (schema.items as JSONSchemaProps) : undefined;
    const item = fieldTypeFromSchema(items);
    const listType = schema['x-kubernetes-list-type'];
    if (listType === 'map') {
      const keys = (schema['x-kubernetes-list-map-keys'] ?? []).filter(
        (key): key is string => typeof key === 'string',
      );
      const keyDefaults: Record<string, unknown> = {};
      for (const key of keys) {
        const property = isJsonObject(items?.properties) ? items.properties[key] : undefined;
        if (isJsonObject(property) && property.default !== undefined)
          keyDefaults[key] = property.default;
      }
      return { kind: 'list', listType: 'map', keys, keyDefaults, item };
    }
    if (listType === 'set')
      return { kind: 'list', listType: 'set', keys: [], keyDefaults: {}, item };
    return atomicList(item);
  }
  const properties = isJsonObject(schema.properties) ? schema.properties : undefined;
  const additional = isJsonObject(schema.additionalProperties)
    ? (schema.additionalProperties as JSONSchemaProps)
    : undefined;
  const preserves = schema['x-kubernetes-preserve-unknown-fields'] === true;
  if (type === 'object' || properties || additional || preserves) {
    const embedded = schema['x-kubernetes-embedded-resource'] === true;
    const atomic = schema['x-kubernetes-map-type'] === 'atomic';
    const element = additional ? fieldTypeFromSchema(additional) : deducedType;
    return {
      kind: 'map',
      atomic,
      field(name) {
        if (embedded && name === 'metadata') return { type: objectMetaType, declared: true };
        const property = properties?.[name];
        if (isJsonObject(property))
          return { type: fieldTypeFromSchema(property as JSONSchemaProps), declared: true };
        return { type: element, declared: false };
      },
    };
  }
  return scalarType;
}

/**
 * The type of a whole custom resource: its schema's fields, with `metadata` as ObjectMeta and
 * `apiVersion` / `kind` as scalars whatever the schema says.
 */
export function customResourceType(schema: JSONSchemaProps | undefined): ApplyMapType {
  const root = fieldTypeFromSchema(schema ?? { type: 'object' });
  return {
    kind: 'map',
    atomic: false,
    field(name) {
      if (name === 'metadata') return { type: objectMetaType, declared: true };
      if (name === 'apiVersion' || name === 'kind') return { type: scalarType, declared: true };
      if (root.kind === 'map') return root.field(name);
      return { type: deducedType, declared: false };
    },
  };
}

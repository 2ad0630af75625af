/**
 * TypeBox schemas for the Kubernetes schema extensions that plain JSON Schema lacks
 * (`x-kubernetes-int-or-string`, `x-kubernetes-preserve-unknown-fields`,
 * `x-kubernetes-embedded-resource`). Each is an ordinary TypeBox schema, so `Static<>` and
 * `Value.Check` work on it; {@link toStructuralSchema} recognises the extension and renders
 * what controller-gen renders for the matching Go type.
 */
import {
  CloneType,
  type ObjectOptions,
  type SchemaOptions,
  type TInteger,
  type TObject,
  type TOptional,
  type TRecord,
  type TString,
  type TUnion,
  type TUnknown,
  Type,
} from '@sinclair/typebox';

/** The keyword marking an int-or-string node (`intstr.IntOrString` in Go). */
export const intOrStringKeyword = 'x-kubernetes-int-or-string';
/** The keyword telling the API server to keep fields that the schema does not declare. */
export const preserveUnknownFieldsKeyword = 'x-kubernetes-preserve-unknown-fields';
/** The keyword marking a nested Kubernetes object (`runtime.RawExtension` with a kind). */
export const embeddedResourceKeyword = 'x-kubernetes-embedded-resource';

/** The TypeBox type of {@link IntOrString}: `number | string`. */
export type TIntOrString = TUnion<[TInteger, TString]>;

/**
 * An integer or a string, like `intstr.IntOrString` (`targetPort: 8080` or `http`,
 * `maxUnavailable: 1` or `25%`). Renders as
 * `anyOf: [{type: integer}, {type: string}]` with `x-kubernetes-int-or-string: true`.
 * `options` (description, default, ...) apply to the whole value.
 */
export function IntOrString(options: SchemaOptions = {}): TIntOrString {
  return Type.Union([Type.Integer(), Type.String()], { ...options, [intOrStringKeyword]: true });
}

/** The TypeBox type of {@link PreserveUnknownFields} without a schema: any JSON object. */
export type TUnknownObject = TRecord<TString, TUnknown>;

/**
 * An object whose fields the API server keeps even though the schema does not declare them
 * (`x-kubernetes-preserve-unknown-fields: true`), e.g. free-form Helm values.
 *
 * Without `schema`: any JSON object (`Record<string, unknown>`), rendered as
 * `{type: object, x-kubernetes-preserve-unknown-fields: true}`. With `schema`: that object,
 * its declared properties validated and typed, any other field kept (but untyped).
 */
export function PreserveUnknownFields(options?: ObjectOptions): TUnknownObject;
export function PreserveUnknownFields<T extends TObject>(schema: T, options?: ObjectOptions): T;
export function PreserveUnknownFields(
  schemaOrOptions?: TObject | ObjectOptions,
  options: ObjectOptions = {},
): TObject | TUnknownObject {
  if (schemaOrOptions !== undefined && isTypeBoxObject(schemaOrOptions)) {
    return CloneType(schemaOrOptions, { ...options, [preserveUnknownFieldsKeyword]: true });
  }
  return Type.Record(Type.String(), Type.Unknown(), {
    ...(schemaOrOptions ?? {}),
    [preserveUnknownFieldsKeyword]: true,
  });
}

/** The fields every embedded resource has, typed for `Static<>`. */
type EmbeddedResourceProperties = {
  apiVersion: TString;
  kind: TString;
  metadata: TOptional<TUnknownObject>;
};

/** The TypeBox type of {@link EmbeddedResource}: a Kubernetes object plus `T`'s properties. */
export type TEmbeddedResource<T extends TObject = TObject<Record<never, never>>> = TObject<
  EmbeddedResourceProperties & T['properties']
>;

/**
 * A complete Kubernetes object nested in a field (`x-kubernetes-embedded-resource: true`),
 * such as a pod template or an arbitrary object to create. The API server checks its
 * `apiVersion`, `kind` and `metadata` like those of a top-level object.
 *
 * Without `schema`: any object (`apiVersion` and `kind` required, every other field kept).
 * With `schema`: its properties are declared (and validated) next to those three, and other
 * fields are pruned. The three fields are implicit in the rendered schema; they are part of
 * the TypeBox schema only for `Static<>` and client-side validation.
 */
export function EmbeddedResource<T extends TObject = TObject<Record<never, never>>>(
  schema?: T,
  options: ObjectOptions = {},
): TEmbeddedResource<T> {
  const properties = {
    ...(schema?.properties ?? {}),
    apiVersion: Type.String(),
    kind: Type.String(),
    metadata: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  };
  const preserve = schema === undefined ? { [preserveUnknownFieldsKeyword]: true } : {};
  return Type.Object(properties, {
    ...schemaOptionsOf(schema),
    ...options,
    ...preserve,
    [embeddedResourceKeyword]: true,
  }) as unknown as TEmbeddedResource<T>;
}

function isTypeBoxObject(value: TObject | ObjectOptions): value is TObject {
  return (value as { type?: unknown }).type === 'object' && 'properties' in value;
}

/** The non-structural options (description, ...) of an object schema. */
function schemaOptionsOf(schema: TObject | undefined): ObjectOptions {
  if (schema === undefined) return {};
  const { type: _type, properties: _properties, required: _required, ...options } = schema;
  return options;
}

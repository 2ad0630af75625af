import protobuf from 'protobufjs/light.js';
import { rootMessageOf } from '../protobuf/kind-registry.js';
import {
  fieldMessage,
  isInline,
  jsonNameOf,
  kubernetesProtos,
  messageName,
  wellKnownOf,
} from '../protobuf/kubernetes-protos.js';

/** An OpenAPI v3 schema as this server publishes it (plain JSON). */
export type OpenApiSchema = Record<string, unknown>;

/** The component names of the well-known types, as kube-apiserver names them. */
export const wellKnownComponents = {
  Quantity: 'io.k8s.apimachinery.pkg.api.resource.Quantity',
  IntOrString: 'io.k8s.apimachinery.pkg.util.intstr.IntOrString',
  Time: 'io.k8s.apimachinery.pkg.apis.meta.v1.Time',
  MicroTime: 'io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime',
  Duration: 'io.k8s.apimachinery.pkg.apis.meta.v1.Duration',
  RawExtension: 'io.k8s.apimachinery.pkg.runtime.RawExtension',
  FieldsV1: 'io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1',
} as const;

const wellKnownSchemas: Record<string, OpenApiSchema> = {
  [wellKnownComponents.Quantity]: { type: 'string' },
  [wellKnownComponents.IntOrString]: { type: 'string', format: 'int-or-string' },
  [wellKnownComponents.Time]: { type: 'string', format: 'date-time' },
  [wellKnownComponents.MicroTime]: { type: 'string', format: 'date-time' },
  [wellKnownComponents.Duration]: { type: 'string' },
  [wellKnownComponents.RawExtension]: {
    type: 'object',
    'x-kubernetes-preserve-unknown-fields': true,
  },
  [wellKnownComponents.FieldsV1]: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
};

/**
 * The OpenAPI component name of a protobuf message, as kube-apiserver names it
 * (`k8s.io.api.core.v1.PodSpec` → `io.k8s.api.core.v1.PodSpec`).
 */
export function componentName(type: protobuf.Type): string {
  return messageName(type).replace(/^k8s\.io\./, 'io.k8s.');
}

const ref = (component: string): OpenApiSchema => ({ $ref: `#/components/schemas/${component}` });

function scalarSchema(type: string): OpenApiSchema {
  switch (type) {
    case 'string':
      return { type: 'string' };
    case 'bytes':
      return { type: 'string', format: 'byte' };
    case 'bool':
      return { type: 'boolean' };
    case 'double':
    case 'float':
      return { type: 'number', format: 'double' };
    default:
      return { type: 'integer', format: type };
  }
}

/** The schema of a field's value (of a map's values). */
function valueSchema(field: protobuf.Field): OpenApiSchema {
  const message = fieldMessage(field);
  if (message === undefined) return scalarSchema(field.type);
  if (wellKnownOf(message) === 'StringList') return { type: 'array', items: { type: 'string' } };
  return ref(componentName(message));
}

function fieldSchema(field: protobuf.Field): OpenApiSchema {
  const value = valueSchema(field);
  if (field.map) return { type: 'object', additionalProperties: value };
  if (field.repeated) return { type: 'array', items: value };
  return value;
}

/** A message's properties, inline (embedded) messages' fields merged in as Go's JSON does. */
function properties(type: protobuf.Type): Record<string, OpenApiSchema> {
  const out: Record<string, OpenApiSchema> = {};
  for (const field of [...type.fieldsArray].sort((a, b) => a.id - b.id)) {
    const inlined = isInline(field) ? fieldMessage(field) : undefined;
    if (inlined !== undefined) Object.assign(out, properties(inlined));
    else out[jsonNameOf(field)] = fieldSchema(field);
  }
  return out;
}

/** Every message type of a namespace and of the namespaces and messages under it. */
function* messagesUnder(namespace: protobuf.NamespaceBase): Generator<protobuf.Type> {
  for (const nested of namespace.nestedArray) {
    if (nested instanceof protobuf.Type) yield nested;
    if (nested instanceof protobuf.Namespace || nested instanceof protobuf.Type)
      yield* messagesUnder(nested);
  }
}

let components: Readonly<Record<string, OpenApiSchema>> | undefined;

/**
 * The OpenAPI v3 component schemas of every built-in message of the vendored Kubernetes protobuf
 * definitions (`proto/`, see `kubernetesProtoVersions`), named as kube-apiserver names them,
 * with `$ref`s between them; built once, on first use. Property names, inline structs and
 * types come from the definitions and the Go struct tags recorded with them: scalars carry
 * kube's types and formats (`integer`/`int32`, `string`/`byte`, `date-time`...), repeated fields
 * are arrays, maps objects with `additionalProperties`, the well-known types (Quantity,
 * IntOrString, Time...) their JSON forms.
 */
export function builtinComponents(): Readonly<Record<string, OpenApiSchema>> {
  if (components !== undefined) return components;
  const built: Record<string, OpenApiSchema> = { ...wellKnownSchemas };
  for (const type of messagesUnder(kubernetesProtos())) {
    if (wellKnownOf(type) !== undefined) continue;
    built[componentName(type)] = { type: 'object', properties: properties(type) };
  }
  components = built;
  return built;
}

/**
 * The schema of a built-in kind (its root message, plus `apiVersion` and `kind`), or
 * undefined for kinds whose fields this server does not know (they are served untyped).
 */
export function builtinKindSchema(apiVersion: string, kind: string): OpenApiSchema | undefined {
  const root = rootMessageOf(apiVersion, kind);
  if (root === undefined) return undefined;
  const schema = builtinComponents()[componentName(root)] as OpenApiSchema;
  return {
    type: 'object',
    properties: {
      apiVersion: { type: 'string' },
      kind: { type: 'string' },
      ...(schema.properties as Record<string, OpenApiSchema>),
    },
  };
}

/** The component names `schema` reaches through `$ref`s, itself excluded. */
export function referencedComponents(schema: OpenApiSchema): Set<string> {
  const found = new Set<string>();
  const all = builtinComponents();
  const pending: unknown[] = [schema];
  while (pending.length > 0) {
    const current = pending.pop();
    if (typeof current !== 'object' || current === null) continue;
    const target = (current as OpenApiSchema).$ref;
    if (typeof target === 'string') {
      const name = target.slice('#/components/schemas/'.length);
      if (!found.has(name)) {
        found.add(name);
        pending.push(all[name]);
      }
    }
    pending.push(...Object.values(current));
  }
  return found;
}

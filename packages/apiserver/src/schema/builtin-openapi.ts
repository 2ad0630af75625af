import { messageSchemas, rootMessageOf } from '../protobuf/kind-registry.js';
import type { FieldSchema, MessageSchema, ValueType } from '../protobuf/message-schema.js';

/** An OpenAPI v3 schema as this server publishes it (plain JSON). */
export type OpenApiSchema = Record<string, unknown>;

const packages: Readonly<Record<string, string>> = {
  meta: 'io.k8s.apimachinery.pkg.apis.meta.v1',
  core: 'io.k8s.api.core.v1',
  apps: 'io.k8s.api.apps.v1',
  batch: 'io.k8s.api.batch.v1',
  rbac: 'io.k8s.api.rbac.v1',
  authorization: 'io.k8s.api.authorization.v1',
  authentication: 'io.k8s.api.authentication.v1',
  autoscaling: 'io.k8s.api.autoscaling.v1',
  policy: 'io.k8s.api.policy.v1',
  networking: 'io.k8s.api.networking.v1',
  scheduling: 'io.k8s.api.scheduling.v1',
  coordination: 'io.k8s.api.coordination.v1',
};

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

/** The OpenAPI component name of a message (`core.PodSpec` → `io.k8s.api.core.v1.PodSpec`). */
export function componentName(message: string): string {
  const [pkg = '', name = ''] = message.split('.');
  return `${packages[pkg] ?? `io.k8s.api.${pkg}.v1`}.${name}`;
}

const ref = (component: string): OpenApiSchema => ({ $ref: `#/components/schemas/${component}` });

function valueSchema(value: ValueType): OpenApiSchema {
  if (value.kind === 'message') return ref(componentName(value.message));
  if (value.kind === 'wellKnown') {
    if (value.wellKnown === 'StringList') return { type: 'array', items: { type: 'string' } };
    return ref(wellKnownComponents[value.wellKnown]);
  }
  switch (value.scalar) {
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
      return { type: 'integer', format: value.scalar };
  }
}

function fieldSchema(field: FieldSchema): OpenApiSchema {
  const value = valueSchema(field.value);
  if (field.repeated) return { type: 'array', items: value };
  if (field.map) return { type: 'object', additionalProperties: value };
  return value;
}

/** A message's properties, inline (embedded) messages' fields merged in as Go's JSON does. */
function properties(
  message: MessageSchema,
  all: ReadonlyMap<string, MessageSchema>,
): Record<string, OpenApiSchema> {
  const out: Record<string, OpenApiSchema> = {};
  for (const field of [...message.fields.values()].sort((a, b) => a.number - b.number)) {
    const inlined =
      field.inline && field.value.kind === 'message' ? all.get(field.value.message) : undefined;
    if (inlined !== undefined) Object.assign(out, properties(inlined, all));
    else out[field.json] = fieldSchema(field);
  }
  return out;
}

let components: Readonly<Record<string, OpenApiSchema>> | undefined;

/**
 * The OpenAPI v3 component schemas of every built-in message this server knows the fields of
 * (the protobuf field tables of k8s.io/api, Kubernetes 1.32), named as kube-apiserver names
 * them, with `$ref`s between them; built once, on first use. Scalars carry kube's types and
 * formats (`integer`/`int32`, `string`/`byte`, `date-time`...), repeated fields are arrays,
 * maps objects with `additionalProperties`.
 */
export function builtinComponents(): Readonly<Record<string, OpenApiSchema>> {
  if (components !== undefined) return components;
  const all = messageSchemas();
  const built: Record<string, OpenApiSchema> = { ...wellKnownSchemas };
  for (const message of all.values())
    built[componentName(message.name)] = { type: 'object', properties: properties(message, all) };
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
  const schema = builtinComponents()[componentName(root.name)] as OpenApiSchema;
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

import type { KubernetesObject, ScaleSubresource } from '@ops/api';
import { isJsonObject } from '@ops/api';
import { StatusError } from '../../api/status-error.js';
import type { Json } from '../../json/json.js';
import { applyJsonPatch, applyMergePatch } from '../../patch/index.js';
import type { ResourceType } from '../../registry/resource-type.js';
import type { RequestContext, ResourceService } from './resource-service.js';

/** Where the built-in resources with `/scale` (Deployment, ReplicaSet, StatefulSet) keep it. */
const builtinScalePaths: ScaleSubresource = {
  specReplicasPath: '.spec.replicas',
  statusReplicasPath: '.status.replicas',
};

/**
 * The smallest int32: what an old Scale's `spec.replicas` holds while a patch is applied to it
 * when the object has nothing at its `specReplicasPath`, as kube-apiserver marks it, so that
 * a patch that does not set the replicas is told they cannot be empty.
 */
const replicasNotSet = -2147483648;

/** The fields of a dotted path (`.spec.size` → `spec`, `size`), the leading dot optional. */
const fieldsOf = (path: string): string[] => path.replace(/^\./, '').split('.');

/** apimachinery's `jsonPath(fields)`, as its accessor errors print it. */
const dotted = (fields: readonly string[]): string => `.${fields.join('.')}`;

/** Go's `%T` of a decoded JSON value. */
function goType(value: unknown): string {
  if (value === null || value === undefined) return '<nil>';
  if (typeof value === 'string') return 'string';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int64' : 'float64';
  return Array.isArray(value) ? '[]interface {}' : 'map[string]interface {}';
}

/** Go's `%v` of a decoded JSON value. */
function goValue(value: unknown): string {
  if (value === null || value === undefined) return '<nil>';
  if (Array.isArray(value)) return `[${value.map(goValue).join(' ')}]`;
  if (isJsonObject(value)) {
    const entries = Object.keys(value)
      .sort()
      .map((key) => `${key}:${goValue(value[key])}`);
    return `map[${entries.join(' ')}]`;
  }
  return String(value);
}

/** An accessor error of apimachinery's unstructured helpers, as kube-apiserver passes it on. */
const unknownError = (message: string): StatusError => StatusError.unknown(message);

/**
 * The value at `fields` of `object` as apimachinery's `NestedFieldNoCopy` finds it: `found`
 * false when a level is missing; an error when a level on the way is not an object.
 */
function nested(object: Json, fields: readonly string[]): { found: boolean; value?: unknown } {
  let current: unknown = object;
  for (const [index, field] of fields.entries()) {
    if (!isJsonObject(current)) {
      throw unknownError(
        `${dotted(fields.slice(0, index + 1))} accessor error: ${goValue(current)} is of the type ${goType(current)}, expected map[string]interface{}`,
      );
    }
    if (!Object.hasOwn(current, field)) return { found: false };
    current = current[field];
  }
  return { found: true, value: current };
}

/** The integer at `path`, or `undefined` when absent; an error when it is not an integer. */
function nestedInteger(object: Json, path: string): number | undefined {
  const fields = fieldsOf(path);
  const { found, value } = nested(object, fields);
  if (!found) return undefined;
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  throw unknownError(
    `${dotted(fields)} accessor error: ${goValue(value)} is of the type ${goType(value)}, expected int64`,
  );
}

/** The string at `path`, or `''` when absent; an error when it is not a string. */
function nestedString(object: Json, path: string): string {
  const fields = fieldsOf(path);
  const { found, value } = nested(object, fields);
  if (!found) return '';
  if (typeof value === 'string') return value;
  throw unknownError(
    `${dotted(fields)} accessor error: ${goValue(value)} is of the type ${goType(value)}, expected string`,
  );
}

/** A built-in's `spec.selector` in its string form (`a=b,c=d`). */
function builtinSelector(object: KubernetesObject): string {
  const spec = isJsonObject(object.spec) ? object.spec : {};
  return isJsonObject(spec.selector) && isJsonObject(spec.selector.matchLabels)
    ? Object.entries(spec.selector.matchLabels)
        .map(([k, v]) => `${k}=${String(v)}`)
        .join(',')
    : '';
}

/** A Scale read from an object, and whether the object had replicas at its spec path. */
interface ReadScale {
  scale: Json;
  replicasFound: boolean;
}

function readScale(type: ResourceType, object: KubernetesObject): ReadScale {
  const paths = type.scalePaths ?? builtinScalePaths;
  const content = object as unknown as Json;
  const specReplicas = nestedInteger(content, paths.specReplicasPath);
  const statusReplicas = nestedInteger(content, paths.statusReplicasPath) ?? 0;
  const selector =
    type.scalePaths === undefined
      ? builtinSelector(object)
      : paths.labelSelectorPath
        ? nestedString(content, paths.labelSelectorPath)
        : '';
  return {
    replicasFound: specReplicas !== undefined || type.scalePaths === undefined,
    scale: {
      kind: 'Scale',
      apiVersion: 'autoscaling/v1',
      metadata: {
        name: object.metadata?.name,
        namespace: object.metadata?.namespace,
        uid: object.metadata?.uid,
        resourceVersion: object.metadata?.resourceVersion,
        creationTimestamp: object.metadata?.creationTimestamp,
      },
      spec: { replicas: specReplicas ?? 0 },
      // `selector` is omitempty in autoscaling/v1, so kube-apiserver leaves an empty one out.
      status: { replicas: statusReplicas, ...(selector ? { selector } : {}) },
    },
  };
}

/**
 * The `autoscaling/v1` Scale of an object (GET of its `/scale` subresource). A custom
 * resource's comes from the paths of its CRD version's `subresources.scale`: replicas from
 * `specReplicasPath` (500 InternalError "the spec replicas field ... does not exist" when the
 * object has none there, as kube-apiserver answers), observed replicas from
 * `statusReplicasPath` (0 when absent), the selector from `labelSelectorPath` (empty when
 * absent or not declared). A built-in's comes from `spec.replicas`, `status.replicas` and
 * `spec.selector.matchLabels`. A value of the wrong type at a path is kube-apiserver's 500
 * accessor error.
 */
export function scaleOf(type: ResourceType, object: KubernetesObject): Json {
  const { scale, replicasFound } = readScale(type, object);
  if (!replicasFound) {
    throw StatusError.internal(
      `the spec replicas field ${JSON.stringify(type.scalePaths?.specReplicasPath)} does not exist`,
    );
  }
  return scale;
}

/** How a `/scale` write changes the old Scale: replaced by a body (PUT) or patched (PATCH). */
export type ScaleChange =
  | { kind: 'update'; body: unknown }
  | { kind: 'patch'; patchType: 'json' | 'merge'; patch: unknown };

/**
 * Writes the `/scale` subresource (PUT or a JSON/merge PATCH) and returns the new Scale: the
 * change is applied to the object's current Scale, then its `spec.replicas` is written to
 * the resource's spec replicas path (`specReplicasPath` of a custom resource, `spec.replicas`
 * of a built-in), creating the levels on the way; nothing else of the object changes. A
 * `metadata.resourceVersion` in the new Scale is a precondition (409 Conflict when stale).
 * 422 Invalid when the replicas are negative; 400 when they are not an integer, or when a
 * patch leaves them unset on a custom resource that had none (kube-apiserver's "the spec
 * replicas field ... cannot be empty"). The object's own validation (its CRD schema) follows.
 */
export async function updateScale(
  resources: ResourceService,
  type: ResourceType,
  namespace: string,
  name: string,
  change: ScaleChange,
  context: RequestContext,
): Promise<Json> {
  const specPath = type.scalePaths?.specReplicasPath ?? builtinScalePaths.specReplicasPath;
  const requestedVersion = (scale: unknown): string | undefined =>
    isJsonObject(scale) &&
    isJsonObject(scale.metadata) &&
    typeof scale.metadata.resourceVersion === 'string'
      ? scale.metadata.resourceVersion || undefined
      : undefined;
  const precondition = change.kind === 'update' ? requestedVersion(change.body) : undefined;
  const updated = await resources.guaranteedUpdate(
    type,
    namespace,
    name,
    'scale',
    context,
    precondition,
    (current) => {
      const old = readScale(type, current);
      const oldScale = structuredClone(old.scale) as { spec: { replicas: number } };
      if (!old.replicasFound) oldScale.spec.replicas = replicasNotSet;
      const next =
        change.kind === 'update'
          ? change.body
          : change.patchType === 'json'
            ? applyJsonPatch(oldScale, change.patch)
            : applyMergePatch(oldScale, change.patch);
      const replicas = replicasOf(next);
      if (replicas === replicasNotSet) {
        throw StatusError.badRequest(
          `the spec replicas field ${JSON.stringify(specPath)} cannot be empty`,
        );
      }
      if (replicas < 0) {
        throw StatusError.invalid(
          { group: 'autoscaling', resource: 'scale', kind: 'Scale' },
          name,
          [
            {
              type: 'FieldValueInvalid',
              field: 'spec.replicas',
              value: replicas,
              detail: 'must be greater than or equal to 0',
            },
          ],
        );
      }
      setNested(current as unknown as Json, fieldsOf(specPath), replicas);
      const version = change.kind === 'patch' ? requestedVersion(next) : undefined;
      if (version !== undefined && current.metadata) current.metadata.resourceVersion = version;
      return current;
    },
  );
  return readScale(type, updated).scale;
}

/**
 * The `spec.replicas` of a Scale body as kube-apiserver decodes it into an int32: absent is 0,
 * anything but an integer is the decoder's 400.
 */
function replicasOf(scale: unknown): number {
  const spec = isJsonObject(scale) ? scale.spec : undefined;
  const replicas = isJsonObject(spec) ? spec.replicas : undefined;
  if (replicas === undefined || replicas === null) return 0;
  if (
    typeof replicas !== 'number' ||
    !Number.isInteger(replicas) ||
    replicas < -2147483648 ||
    replicas > 2147483647
  ) {
    throw StatusError.badRequest(
      `Scale in version "v1" cannot be handled as a Scale: json: cannot unmarshal ${
        typeof replicas === 'number'
          ? 'number'
          : typeof replicas === 'string'
            ? 'string'
            : typeof replicas === 'boolean'
              ? 'bool'
              : Array.isArray(replicas)
                ? 'array'
                : 'object'
      } into Go struct field ScaleSpec.spec.replicas of type int32`,
    );
  }
  return replicas;
}

/** Sets `value` at `fields`, making the missing levels (apimachinery's `SetNestedField`). */
function setNested(object: Json, fields: readonly string[], value: number): void {
  let current = object;
  for (const [index, field] of fields.slice(0, -1).entries()) {
    const next = current[field];
    if (next === undefined) {
      const made: Json = {};
      current[field] = made;
      current = made;
    } else if (isJsonObject(next)) {
      current = next;
    } else {
      throw unknownError(
        `value cannot be set because ${dotted(fields.slice(0, index + 1))} is not a map`,
      );
    }
  }
  current[fields[fields.length - 1] ?? ''] = value;
}

import type { KubernetesObject } from '@ops/api';
import { isJsonObject } from '@ops/api';
import type { ResourceDescriptor } from '../kinds/resource-descriptor.js';
import type { RestMapper } from '../kinds/rest-mapper.js';
import { badRequestError } from './api-error-from-response.js';

/**
 * The descriptor, namespace and name `obj` is written to, checked before anything is sent.
 *
 * @throws {ApiError} `BadRequest` when `obj` lacks apiVersion or kind, a name (or, when
 *   `needsName` is false, a generateName), or a namespace its kind needs.
 */
export async function writeTarget(
  restMapper: RestMapper,
  obj: KubernetesObject,
  action: string,
  needsName: boolean,
): Promise<{ descriptor: ResourceDescriptor; namespace: string | undefined; name: string }> {
  if (!isJsonObject(obj) || !obj.apiVersion || !obj.kind) {
    throw badRequestError(
      `cannot ${action} an object without apiVersion and kind; set both on the object (e.g. apiVersion: "v1", kind: "ConfigMap")`,
    );
  }
  const name = obj.metadata?.name ?? '';
  if (needsName && !name) {
    throw badRequestError(
      `cannot ${action} a ${obj.kind} without metadata.name; read the object first or set its name`,
    );
  }
  if (!name && !obj.metadata?.generateName) {
    throw badRequestError(
      `cannot ${action} a ${obj.kind} without metadata.name or metadata.generateName; set one of them`,
    );
  }
  const descriptor = await restMapper.resourceFor(obj.apiVersion, obj.kind);
  const namespace = namespaceFor(
    descriptor,
    obj.metadata?.namespace,
    name || `${obj.metadata?.generateName ?? ''}*`,
    action,
  );
  return { descriptor, namespace, name };
}

/**
 * The namespace of a call on one object: undefined for a cluster-scoped kind.
 *
 * @throws {ApiError} `BadRequest` when a namespaced kind is given no namespace.
 */
export function namespaceFor(
  descriptor: ResourceDescriptor,
  namespace: string | undefined,
  name: string,
  action: string,
): string | undefined {
  if (!descriptor.namespaced) return undefined;
  if (!namespace) {
    throw badRequestError(
      `cannot ${action} ${descriptor.kind} "${name}": ${descriptor.kind} is namespaced, and no namespace was given; set metadata.namespace (or pass the namespace)`,
    );
  }
  return namespace;
}

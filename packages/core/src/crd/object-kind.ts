import type { KubernetesObject } from '@ops/api';
import type { ResourceDescriptor } from '../kinds/resource-descriptor.js';
import { parseApiVersion } from '../kinds/resource-descriptor.js';
import type { CustomResource, CustomResourceOptions } from './custom-resource.js';

declare const objectType: unique symbol;

/**
 * A kind the client reads and writes, carrying the TypeScript type of its objects, so that
 * `client.get(deployments, name, namespace)` resolves to a `Deployment` without a cast. Made
 * by {@link objectKind}; the built-in kinds (`deployments`, `pods`, ...) are ones with their
 * {@link ResourceKind.descriptor}, and a `defineCustomResource` definition is one too (its
 * objects are `CustomResource<typeof definition>`).
 */
export interface ObjectKind<T extends KubernetesObject = KubernetesObject> {
  readonly apiVersion: string;
  readonly kind: string;
  /** Type-level only: the type of the objects of this kind. Never present at run time. */
  readonly [objectType]?: T;
}

/**
 * An {@link ObjectKind} that also says where the kind is served: its REST resource (plural)
 * and scope, as discovery reports them. The built-in kinds of `@ops/core` are these.
 */
export interface ResourceKind<T extends KubernetesObject = KubernetesObject> extends ObjectKind<T> {
  /**
   * The REST mapping of the kind as the API server serves it: group, version, kind, plural
   * and whether it is namespaced. The client and cache still ask discovery (the server is the
   * authority); this is for code that needs the plural or scope without a server, such as
   * RBAC rules (`deployments.descriptor.plural`).
   */
  readonly descriptor: ResourceDescriptor;
}

/**
 * The TypeScript type of the objects of `K`: `CustomResource<K>` for a custom resource
 * definition, `T` for an {@link ObjectKind}`<T>`, else `KubernetesObject`.
 */
export type ObjectOf<K> = K extends { readonly options: CustomResourceOptions }
  ? CustomResource<K>
  : K extends ObjectKind<infer T>
    ? T
    : KubernetesObject;

/** The REST resource of a kind: its plural (the URL segment) and scope. */
export interface KindResource {
  /** The plural resource name, lower case: `deployments`. */
  plural: string;
  /** Whether objects of the kind live in a namespace (false for cluster-scoped kinds). */
  namespaced: boolean;
}

/** A DNS-1123 label, as Kubernetes requires of resource names. */
const pluralPattern = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/**
 * Declares a kind the client reads and writes with objects of type `T`:
 * `const deployments = objectKind<Deployment>('apps/v1', 'Deployment')`. With `resource`
 * (`{ plural: 'deployments', namespaced: true }`) it is a {@link ResourceKind} carrying its
 * descriptor. The type is the caller's promise about what the API server returns; nothing
 * checks it at run time. The result is frozen.
 *
 * @throws TypeError when `apiVersion` or `kind` is empty, or `resource` has a plural that is
 * not a lower-case resource name or a `namespaced` that is not a boolean.
 */
export function objectKind<T extends KubernetesObject>(
  apiVersion: string,
  kind: string,
): ObjectKind<T>;
export function objectKind<T extends KubernetesObject>(
  apiVersion: string,
  kind: string,
  resource: KindResource,
): ResourceKind<T>;
export function objectKind<T extends KubernetesObject>(
  apiVersion: string,
  kind: string,
  resource?: KindResource,
): ObjectKind<T> | ResourceKind<T> {
  if (!apiVersion || !kind) {
    throw new TypeError(
      `objectKind needs an apiVersion and a kind, got ${JSON.stringify({ apiVersion, kind })}; write objectKind<Deployment>('apps/v1', 'Deployment')`,
    );
  }
  if (resource === undefined) return Object.freeze({ apiVersion, kind });
  const { plural, namespaced } = resource;
  if (typeof plural !== 'string' || !pluralPattern.test(plural)) {
    throw new TypeError(
      `objectKind(${JSON.stringify(apiVersion)}, ${JSON.stringify(kind)}) got the plural ${JSON.stringify(plural)}; give the lower-case resource name of the URL, as \`kubectl api-resources\` lists it (e.g. 'deployments')`,
    );
  }
  if (typeof namespaced !== 'boolean') {
    throw new TypeError(
      `objectKind(${JSON.stringify(apiVersion)}, ${JSON.stringify(kind)}) got namespaced ${JSON.stringify(namespaced)}; give true for a namespaced kind, false for a cluster-scoped one`,
    );
  }
  const { group, version } = parseApiVersion(apiVersion);
  const descriptor = Object.freeze({ group, version, kind, plural, namespaced });
  return Object.freeze({ apiVersion, kind, descriptor });
}

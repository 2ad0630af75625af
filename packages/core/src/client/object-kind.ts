import type { KubernetesObject } from '@ops/api';
import type { CustomResource, CustomResourceOptions } from '../crd/custom-resource.js';

declare const objectType: unique symbol;

/**
 * A kind the client reads and writes, carrying the TypeScript type of its objects, so that
 * `client.get(deployments, name, namespace)` resolves to a `Deployment` without a cast. Made
 * by {@link objectKind} for built-in kinds; a `defineCustomResource` definition is one too
 * (its objects are `CustomResource<typeof definition>`).
 */
export interface ObjectKind<T extends KubernetesObject = KubernetesObject> {
  readonly apiVersion: string;
  readonly kind: string;
  /** Type-level only: the type of the objects of this kind. Never present at run time. */
  readonly [objectType]?: T;
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

/**
 * Declares a kind the client reads and writes with objects of type `T`:
 * `const deployments = objectKind<Deployment>('apps/v1', 'Deployment')`. The type is the
 * caller's promise about what the API server returns; nothing checks it at run time.
 *
 * @throws TypeError when `apiVersion` or `kind` is empty.
 */
export function objectKind<T extends KubernetesObject>(
  apiVersion: string,
  kind: string,
): ObjectKind<T> {
  if (!apiVersion || !kind) {
    throw new TypeError(
      `objectKind needs an apiVersion and a kind, got ${JSON.stringify({ apiVersion, kind })}; write objectKind<Deployment>('apps/v1', 'Deployment')`,
    );
  }
  return Object.freeze({ apiVersion, kind });
}

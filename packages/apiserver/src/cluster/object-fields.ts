import type { KubernetesObject, OwnerReference } from '@ops/api';
import { type Json, objectOr } from '../json/json.js';

/** `spec` of an object, or an empty object. */
export function specOf(object: KubernetesObject): Json {
  return objectOr(object.spec);
}

/** `status` of an object, or an empty object. */
export function statusOf(object: KubernetesObject): Json {
  return objectOr(object.status);
}

/** The reference to `object` a dependent carries when `object` controls it. */
export function controllerReference(object: KubernetesObject): OwnerReference {
  return {
    apiVersion: object.apiVersion ?? '',
    kind: object.kind ?? '',
    name: object.metadata?.name ?? '',
    uid: object.metadata?.uid ?? '',
    controller: true,
    blockOwnerDeletion: true,
  };
}

/** The uid of the object's controller (`ownerReferences[]` with `controller: true`) when its kind is `kind`. */
export function controllerUid(object: KubernetesObject, kind: string): string | undefined {
  const ref = object.metadata?.ownerReferences?.find((r) => r.controller === true);
  return ref !== undefined && ref.kind === kind ? ref.uid : undefined;
}

/** The name of the object's controller when its kind is `kind`. */
export function controllerName(
  object: KubernetesObject | undefined,
  kind: string,
): string | undefined {
  const ref = object?.metadata?.ownerReferences?.find((r) => r.controller === true);
  return ref !== undefined && ref.kind === kind ? ref.name : undefined;
}

/**
 * The `namespace/name` keys of the `kind` controllers of an event's object, before and after
 * the change (an object that changed controller wakes both).
 */
export function controllerKeys(
  current: KubernetesObject | undefined,
  previous: KubernetesObject | undefined,
  kind: string,
): string[] {
  const keys = new Set<string>();
  for (const object of [current, previous]) {
    const name = controllerName(object, kind);
    if (name !== undefined) keys.add(`${object?.metadata?.namespace ?? ''}/${name}`);
  }
  return [...keys];
}

/** `namespace/name` of an object. */
export function namespacedKey(object: KubernetesObject | undefined): string | undefined {
  const meta = object?.metadata;
  if (meta?.name === undefined) return undefined;
  return `${meta.namespace ?? ''}/${meta.name}`;
}

/** Splits a `namespace/name` key. */
export function splitKey(key: string): { namespace: string; name: string } {
  const slash = key.indexOf('/');
  return slash === -1
    ? { namespace: '', name: key }
    : { namespace: key.slice(0, slash), name: key.slice(slash + 1) };
}

import type { KubernetesObject, OwnerReference } from '@ops/api';
import { isJsonObject } from '@ops/api';

/** A JSON object, loosely typed: objects of the API are read defensively. */
export type Json = Record<string, unknown>;

/** `value` when it is an object, else an empty one. */
export function objectOr(value: unknown): Json {
  return isJsonObject(value) ? value : {};
}

/** The objects of `value` when it is an array, else none. */
export function objectsOf(value: unknown): Json[] {
  return Array.isArray(value) ? value.filter(isJsonObject) : [];
}

/** `value` when it is a string, else `fallback`. */
export function stringOr(value: unknown, fallback = ''): string {
  return typeof value === 'string' ? value : fallback;
}

/** `value` when it is a finite number, else `fallback`. */
export function numberOr(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
}

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

import type { KubernetesObject } from '@ops/api';
import { groupOf } from '@ops/api';
import type { Request } from './reconcile.js';

/** Turns an event's object into the requests to reconcile. */
export type EventHandler = (object: KubernetesObject) => Request[];

/** Reconciles the object itself (what `for()` uses). */
export const enqueueForObject: EventHandler = (object) => {
  const name = object.metadata?.name;
  return name ? [{ namespace: object.metadata?.namespace ?? '', name }] : [];
};

/**
 * Reconciles the owner of type `apiVersion`/`kind` named in the object's owner references
 * (what `owns()` uses): by default only the controlling owner (`controller: true`). Versions
 * are ignored (an owner reference written at v1beta1 still matches v1). Owners are assumed
 * to be in the object's namespace, or cluster-scoped when `ownerNamespaced` is false.
 */
export function enqueueForOwner(
  apiVersion: string,
  kind: string,
  options: { onlyController?: boolean; ownerNamespaced?: boolean } = {},
): EventHandler {
  const group = groupOf(apiVersion);
  const onlyController = options.onlyController ?? true;
  const ownerNamespaced = options.ownerNamespaced ?? true;
  return (object) =>
    (object.metadata?.ownerReferences ?? [])
      .filter(
        (ref) =>
          ref.kind === kind &&
          groupOf(ref.apiVersion) === group &&
          (!onlyController || ref.controller === true),
      )
      .map((ref) => ({
        namespace: ownerNamespaced ? (object.metadata?.namespace ?? '') : '',
        name: ref.name,
      }));
}

/**
 * Reconciles whatever `map` returns for the object (what `watches()` uses). Exceptions in
 * `map` are the caller's bug: they are caught by the controller, logged, and enqueue nothing.
 */
export function enqueueMapped(map: (object: KubernetesObject) => Request[]): EventHandler {
  return map;
}

import type { KubernetesObject, LabelSelector } from '@ops/api';
import { labelSelectorFromObject, parseLabelSelector } from '@ops/api';

/**
 * An event as predicates see it, of objects of type `T` (the watched kind's type when the
 * builder was given a typed kind such as `deployments`). `old` is set for updates only.
 */
export interface ObjectEvent<T extends KubernetesObject = KubernetesObject> {
  type: 'create' | 'update' | 'delete';
  object: T;
  old?: T;
}

/**
 * Decides whether an event should enqueue a reconcile. Predicates filter noise; they must
 * never be needed for correctness (a reconcile must converge whatever events it saw). A
 * `Predicate` of any object (the ones below) fits every kind; a `Predicate<Deployment>`
 * only a kind of Deployments.
 */
export type Predicate<T extends KubernetesObject = KubernetesObject> = (
  event: ObjectEvent<T>,
) => boolean;

/**
 * Passes updates only when `metadata.generation` changed (spec edits), plus every create and
 * delete. Status-only updates of the object itself are dropped. Objects without generation
 * (ConfigMaps...) pass every update.
 */
export const generationChanged: Predicate = (event) => {
  if (event.type !== 'update' || event.old === undefined) return true;
  const before = event.old.metadata?.generation;
  const after = event.object.metadata?.generation;
  if (before === undefined || after === undefined) return true;
  return before !== after;
};

/** Passes updates only when the resourceVersion changed (drops resync duplicates). */
export const resourceVersionChanged: Predicate = (event) =>
  event.type !== 'update' ||
  event.old?.metadata?.resourceVersion !== event.object.metadata?.resourceVersion;

/** Passes updates only when labels changed. */
export const labelsChanged: Predicate = (event) =>
  event.type !== 'update' ||
  JSON.stringify(event.old?.metadata?.labels ?? {}) !==
    JSON.stringify(event.object.metadata?.labels ?? {});

/** Passes updates only when annotations changed. */
export const annotationsChanged: Predicate = (event) =>
  event.type !== 'update' ||
  JSON.stringify(event.old?.metadata?.annotations ?? {}) !==
    JSON.stringify(event.object.metadata?.annotations ?? {});

/**
 * Passes events of objects whose labels match `selector` (string form or structured). For
 * updates, either the old or the new labels matching is enough, so an object leaving the
 * selector is still reconciled once.
 *
 * @throws {LabelSelectorError} at construction for an invalid selector.
 */
export function labelSelectorPredicate(selector: string | LabelSelector): Predicate {
  const compiled =
    typeof selector === 'string' ? parseLabelSelector(selector) : labelSelectorFromObject(selector);
  return (event) =>
    compiled.matches(event.object.metadata?.labels) ||
    (event.old !== undefined && compiled.matches(event.old.metadata?.labels));
}

/** Passes when every predicate passes. Typed for the most specific object type given. */
export const and =
  <T extends KubernetesObject = KubernetesObject>(...predicates: Predicate<T>[]): Predicate<T> =>
  (event) =>
    predicates.every((predicate) => predicate(event));

/** Passes when any predicate passes. Typed for the most specific object type given. */
export const or =
  <T extends KubernetesObject = KubernetesObject>(...predicates: Predicate<T>[]): Predicate<T> =>
  (event) =>
    predicates.some((predicate) => predicate(event));

/** Passes when the predicate does not. */
export const not =
  <T extends KubernetesObject = KubernetesObject>(predicate: Predicate<T>): Predicate<T> =>
  (event) =>
    !predicate(event);

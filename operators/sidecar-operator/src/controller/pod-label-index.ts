import type { KubernetesObject, Pod } from '@ops/core';
import type { Selector } from '@ops/core/meta';

/** The name of the Pod informer's index by label (see {@link podLabelIndexValues}). */
export const podLabelIndex = 'sidecar-operator.labels';

/**
 * The values a Pod is indexed under in {@link podLabelIndex}: `<key>=<value>` for each of its
 * labels, and `<key>` alone (no `=`: label keys cannot contain one) for the presence of the
 * key. A Pod without labels is under no value.
 */
export function podLabelIndexValues(object: KubernetesObject): string[] {
  const labels = object.metadata?.labels ?? {};
  return Object.entries(labels).flatMap(([key, value]) => [`${key}=${value}`, key]);
}

/** The reads {@link podsSelectedBy} needs from the Pod informer. */
export interface PodIndexReader {
  /** Cached Pods under `value` of index `name`, by reference. */
  byIndex(name: string, value: string): KubernetesObject[];
  /** Every cached Pod, by reference. */
  list(): KubernetesObject[];
}

/**
 * The cached Pods `selector` matches, found through {@link podLabelIndex} rather than by
 * scanning every Pod: of the selector's requirements that narrow the search (`key=value`,
 * `In`, `Exists`), the one with the fewest indexed Pods gives the candidates, which are then
 * checked against the whole selector. A selector made only of `NotIn` and `DoesNotExist`
 * has nothing to look up and falls back to every cached Pod. The nothing selector matches
 * no Pod. Returns the cached objects: do not change them.
 */
export function podsSelectedBy(selector: Selector, pods: PodIndexReader): Pod[] {
  if (selector.isNothing()) return [];
  let candidates: KubernetesObject[] | undefined;
  for (const requirement of selector.requirements) {
    let found: KubernetesObject[] | undefined;
    if (requirement.operator === 'Equals' || requirement.operator === 'In') {
      found = requirement.values.flatMap((value) =>
        pods.byIndex(podLabelIndex, `${requirement.key}=${value}`),
      );
    } else if (requirement.operator === 'Exists') {
      found = pods.byIndex(podLabelIndex, requirement.key);
    }
    if (found !== undefined && (candidates === undefined || found.length < candidates.length))
      candidates = found;
    if (candidates?.length === 0) return [];
  }
  return (candidates ?? pods.list()).filter((pod) =>
    selector.matches(pod.metadata?.labels),
  ) as Pod[];
}

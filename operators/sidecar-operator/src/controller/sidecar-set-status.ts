import type { Pod } from '@ops/core';
import type { SidecarSet } from '../api/v1alpha1/sidecar-set.js';
import { isActivePod, isReadyPod } from '../pod.js';
import { excludedNamespaces } from '../webhook/pod-injector.js';
import { recordedSidecarHashes, sidecarHash } from '../webhook/sidecar-hash.js';

/** The counts of a SidecarSet's status. */
export interface SidecarSetCounts {
  /** Active Pods the selector matches. */
  matchedPods: number;
  /** Matched Pods whose recorded hash for this SidecarSet is its current one. */
  updatedPods: number;
  /** Updated Pods that are Ready. */
  readyPods: number;
}

/** The `Ready` condition of a SidecarSet, without its bookkeeping fields. */
export interface SidecarSetCondition {
  type: 'Ready';
  status: 'True' | 'False';
  reason: 'NoMatchingPods' | 'AllPodsUpdated' | 'PodsNotUpdated';
  message: string;
}

/**
 * Counts `selected` (the Pods the SidecarSet's selector matches, in any state) as the
 * status reports them: matched = the active ones (not finished, not being deleted) outside
 * the namespaces the Pod webhook leaves out (`excludedNamespaces`: they can never be injected);
 * updated = matched Pods whose `chinalhr.github.io/sidecar-hash` records this SidecarSet's
 * current {@link sidecarHash}; ready = updated Pods whose Ready condition is True.
 */
export function countPods(sidecarSet: SidecarSet, selected: readonly Pod[]): SidecarSetCounts {
  const name = sidecarSet.metadata.name ?? '';
  const hash = sidecarHash(sidecarSet);
  const counts: SidecarSetCounts = { matchedPods: 0, updatedPods: 0, readyPods: 0 };
  for (const pod of selected) {
    if (!isActivePod(pod) || excludedNamespaces.includes(pod.metadata?.namespace ?? '')) continue;
    counts.matchedPods += 1;
    if (recordedSidecarHashes(pod)[name] !== hash) continue;
    counts.updatedPods += 1;
    if (isReadyPod(pod)) counts.readyPods += 1;
  }
  return counts;
}

/**
 * The `Ready` condition for `counts`, so that a user can read why UPDATED is below MATCHED:
 * - no matched Pod: True, `NoMatchingPods`;
 * - every matched Pod updated: True, `AllPodsUpdated`;
 * - otherwise False, `PodsNotUpdated`, saying how many Pods run older containers or none,
 *   that sidecars are injected only when a Pod is created, and how to recreate them.
 */
export function readyCondition(counts: SidecarSetCounts): SidecarSetCondition {
  const { matchedPods, updatedPods, readyPods } = counts;
  if (matchedPods === 0)
    return {
      type: 'Ready',
      status: 'True',
      reason: 'NoMatchingPods',
      message: 'no active Pod matches the selector',
    };
  if (updatedPods === matchedPods)
    return {
      type: 'Ready',
      status: 'True',
      reason: 'AllPodsUpdated',
      message: `all ${matchedPods} matched Pods run the current sidecar containers (${readyPods} ready)`,
    };
  const outdated = matchedPods - updatedPods;
  return {
    type: 'Ready',
    status: 'False',
    reason: 'PodsNotUpdated',
    message: `${outdated} of ${matchedPods} matched Pods do not run the current sidecar containers (injected before the last change of spec.containers, or not at all); sidecars are injected only when a Pod is created: recreate those Pods, e.g. kubectl rollout restart deployment/<name>`,
  };
}

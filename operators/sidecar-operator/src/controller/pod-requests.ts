import type { KubernetesObject, Pod, Request } from '@ops/core';
import type { SidecarSet } from '../api/v1alpha1/sidecar-set.js';
import { sidecarSetSelector } from '../api/v1alpha1/sidecar-set-selector.js';
import { recordedSidecarHashes } from '../webhook/sidecar-hash.js';

/**
 * The SidecarSets whose counts a Pod event may change: every SidecarSet whose selector
 * matches the Pod's labels, and every SidecarSet its `chinalhr.github.io/sidecar-hash`
 * names (injected at creation, even if it no longer matches). `sidecarSets` is the cached
 * list (SidecarSets are few; Pods are many). An invalid selector matches nothing.
 */
export function sidecarSetsForPod(
  pod: KubernetesObject,
  sidecarSets: readonly SidecarSet[],
): Request[] {
  const names = new Set(Object.keys(recordedSidecarHashes(pod as Pod)));
  for (const sidecarSet of sidecarSets) {
    try {
      if (sidecarSetSelector(sidecarSet).matches(pod.metadata?.labels))
        names.add(sidecarSet.metadata.name ?? '');
    } catch {
      // An invalid selector selects nothing.
    }
  }
  return [...names].filter((name) => name !== '').map((name) => ({ name, namespace: '' }));
}

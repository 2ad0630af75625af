import type { Pod } from '@ops/core';

/** A container of a Pod, as `@ops/core`'s `Pod` types it. */
export type PodContainer = NonNullable<Pod['spec']>['containers'][number];

/**
 * Whether a Pod still counts for a SidecarSet: not finished (phase Succeeded or Failed) and
 * not being deleted, as Kubernetes' own controllers count active Pods.
 */
export function isActivePod(pod: Pod): boolean {
  const phase = pod.status?.phase;
  return !pod.metadata?.deletionTimestamp && phase !== 'Succeeded' && phase !== 'Failed';
}

/** Whether the Pod's `Ready` condition is `True`. */
export function isReadyPod(pod: Pod): boolean {
  return (pod.status?.conditions ?? []).some(
    (condition) => condition.type === 'Ready' && condition.status === 'True',
  );
}

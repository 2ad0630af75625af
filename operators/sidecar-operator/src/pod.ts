import { type KubernetesObject, objectKind } from '@ops/core';

/** A container of a Pod: its name, and everything else kept as written. */
export type PodContainer = { name: string; env?: Array<{ name: string; value?: string }> } & Record<
  string,
  unknown
>;

/** The fields of a core/v1 Pod the sidecar-operator reads and writes. */
export type Pod = KubernetesObject & {
  spec?: { containers?: PodContainer[] } & Record<string, unknown>;
  status?: {
    phase?: 'Pending' | 'Running' | 'Succeeded' | 'Failed' | 'Unknown';
    conditions?: Array<{ type: string; status: string }>;
  };
};

/** The typed client's kind for core/v1 Pods. */
export const pods = objectKind<Pod>('v1', 'Pod');

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

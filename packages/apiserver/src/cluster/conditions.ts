import type { KubernetesObject } from '@ops/api';
import { type Json, objectsOf, stringOr } from '../json/json.js';
import { statusOf } from './object-fields.js';

/** The condition of `type` in an object's `status.conditions`. */
export function conditionOf(object: KubernetesObject, type: string): Json | undefined {
  return objectsOf(statusOf(object).conditions).find((c) => c.type === type);
}

/** Whether a Pod's `Ready` condition is True. */
export function isPodReady(pod: KubernetesObject): boolean {
  return conditionOf(pod, 'Ready')?.status === 'True';
}

/** Whether a Pod has ended (phase Succeeded or Failed). */
export function isPodTerminal(pod: KubernetesObject): boolean {
  const phase = statusOf(pod).phase;
  return phase === 'Succeeded' || phase === 'Failed';
}

/** Whether a Pod counts for its ReplicaSet: not ended and not being deleted. */
export function isPodActive(pod: KubernetesObject): boolean {
  return !isPodTerminal(pod) && pod.metadata?.deletionTimestamp === undefined;
}

/**
 * Milliseconds until a Pod becomes available (ready for `minReadySeconds`): 0 when it is,
 * undefined when it is not ready at all.
 */
export function msUntilAvailable(
  pod: KubernetesObject,
  minReadySeconds: number,
  now: Date,
): number | undefined {
  if (!isPodReady(pod)) return undefined;
  if (minReadySeconds <= 0) return 0;
  const since = Date.parse(stringOr(conditionOf(pod, 'Ready')?.lastTransitionTime));
  if (Number.isNaN(since)) return 0;
  return Math.max(0, since + minReadySeconds * 1000 - now.getTime());
}

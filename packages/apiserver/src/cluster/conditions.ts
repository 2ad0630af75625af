import { isJsonObject, type KubernetesObject } from '@ops/api';
import { type Json, objectsOf, statusOf, stringOr } from './json.js';

/** A condition as a controller computes it; times are filled in by {@link setCondition}. */
export interface DesiredCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  reason?: string;
  message?: string;
}

/**
 * `conditions` with the condition of `desired.type` set to `desired`, in place of the old one
 * (or appended). `lastTransitionTime` changes only when the status does; with
 * `lastUpdateTime` (Deployments), that changes only when status, reason or message do; so
 * setting an unchanged condition gives back an equal list and causes no write.
 */
export function setCondition(
  conditions: readonly unknown[],
  desired: DesiredCondition,
  now: string,
  withUpdateTime = false,
): Json[] {
  const list = conditions.filter(isJsonObject);
  const index = list.findIndex((c) => c.type === desired.type);
  const old = index === -1 ? undefined : list[index];
  const same =
    old !== undefined &&
    old.status === desired.status &&
    stringOr(old.reason) === (desired.reason ?? '') &&
    stringOr(old.message) === (desired.message ?? '');
  const next: Json = { type: desired.type, status: desired.status };
  if (withUpdateTime)
    next.lastUpdateTime = same && old?.lastUpdateTime !== undefined ? old.lastUpdateTime : now;
  next.lastTransitionTime =
    old !== undefined && old.status === desired.status && old.lastTransitionTime !== undefined
      ? old.lastTransitionTime
      : now;
  if (desired.reason !== undefined) next.reason = desired.reason;
  if (desired.message !== undefined) next.message = desired.message;
  if (old !== undefined && same && old.lastProbeTime !== undefined)
    next.lastProbeTime = old.lastProbeTime;
  const result = [...list];
  if (index === -1) result.push(next);
  else result[index] = next;
  return result;
}

/** `conditions` without the condition of `type`. */
export function removeCondition(conditions: readonly unknown[], type: string): Json[] {
  return conditions.filter(isJsonObject).filter((c) => c.type !== type);
}

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

import {
  type Condition,
  type ConditionStatus,
  type ObjectMeta,
  type SetStatusConditionOptions,
  setStatusCondition,
} from '@ops/api';

/** An object whose status holds conditions (`status.conditions`), as {@link setCondition} takes. */
export interface ObjectWithConditions {
  metadata?: ObjectMeta;
  status?: { conditions?: Condition[] };
}

/** What {@link setCondition} takes: the condition without its times and generation. */
export interface ConditionUpdate {
  /** CamelCase kind of condition, e.g. `Ready`. */
  type: string;
  status: ConditionStatus;
  /** CamelCase, machine-readable cause, e.g. `DeploymentAvailable`. */
  reason: string;
  /** Human-readable details; default empty. */
  message?: string;
}

/**
 * Sets one condition on `object.status.conditions` (in place, creating `status` and the list
 * when absent), stamped with `observedGeneration` = the object's `metadata.generation`:
 *
 * - `lastTransitionTime` is set (to `options.now()`, default now) when the condition is new
 *   or its `status` changed, and otherwise kept, so it stays the time of the last transition;
 * - `reason`, `message` and `observedGeneration` are updated without moving it.
 *
 * Returns whether anything changed, so that a reconciler writes the status only then.
 * Other conditions and their order are kept.
 *
 * @throws {ConditionError} when the type or reason is invalid (see `validateCondition`);
 *   the object is unchanged.
 */
export function setCondition(
  object: ObjectWithConditions,
  update: ConditionUpdate,
  options: SetStatusConditionOptions = {},
): boolean {
  const conditions = [...(object.status?.conditions ?? [])].map((condition) => ({
    ...condition,
  }));
  const generation = object.metadata?.generation;
  const changed = setStatusCondition(
    conditions,
    {
      type: update.type,
      status: update.status,
      reason: update.reason,
      message: update.message ?? '',
      ...(generation === undefined ? {} : { observedGeneration: generation }),
    },
    options,
  );
  if (changed) object.status = { ...object.status, conditions };
  return changed;
}

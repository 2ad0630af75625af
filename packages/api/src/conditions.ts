/**
 * Status conditions (`metav1.Condition`) with the semantics of apimachinery's
 * `meta.SetStatusCondition` and friends: one condition per `type`, and `lastTransitionTime`
 * moves only when `status` changes.
 */
import { ConditionError, type ConditionField } from './errors/condition-error.js';
import { isJsonObject } from './json.js';
import type { ObjectMeta } from './kubernetes-object.js';

/** The status of a condition: `True`, `False`, or `Unknown` when it cannot be determined. */
export type ConditionStatus = 'True' | 'False' | 'Unknown';

/** One entry of `status.conditions`, as `metav1.Condition` (plain JSON, times as RFC 3339). */
export interface Condition {
  /** CamelCase (or `domain/CamelCase`) kind of condition, e.g. `Ready`; unique in a list. */
  type: string;
  status: ConditionStatus;
  /** The `metadata.generation` the condition was computed from; absent means unknown (0). */
  observedGeneration?: number;
  /** When `status` last changed, RFC 3339 (`2024-05-01T12:00:00Z`). */
  lastTransitionTime: string;
  /** CamelCase, machine-readable cause of the last transition, e.g. `ReplicasReady`. */
  reason: string;
  /** Human-readable details; may be empty. */
  message: string;
}

/** What {@link setStatusCondition} takes: a condition whose `lastTransitionTime` is optional. */
export type ConditionInput = Omit<Condition, 'lastTransitionTime'> & {
  /** When given and the status changes (or the condition is new), used instead of now. */
  lastTransitionTime?: string;
};

/** Options of {@link setStatusCondition}. */
export interface SetStatusConditionOptions {
  /** The wall clock, for `lastTransitionTime`. Default `() => new Date()`. */
  now?: () => Date;
}

const conditionStatuses: readonly string[] = ['True', 'False', 'Unknown'];
const typePattern =
  /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$/;
const typeMaxLength = 316;
const reasonPattern = /^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$/;
const reasonMaxLength = 1024;
const messageMaxLength = 32768;
const rfc3339Pattern = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i;

/**
 * The problems with a condition `reason`, empty when valid: 1 to 1024 characters matching
 * apimachinery's `^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$` (CamelCase by convention).
 */
export function validateConditionReason(reason: string): string[] {
  const errors: string[] = [];
  if (reason.length === 0) errors.push('must be non-empty');
  if (reason.length > reasonMaxLength) {
    errors.push(`must be no more than ${reasonMaxLength} characters`);
  }
  if (reason.length > 0 && !reasonPattern.test(reason)) {
    errors.push(
      "a condition reason must start with a letter and consist of letters, digits, '_', ',' or ':', ending with a letter, digit or '_' (CamelCase, e.g. 'ReplicasReady', regex used for validation is '[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?')",
    );
  }
  return errors;
}

/**
 * The problems with a condition `type`, empty when valid: at most 316 characters, a
 * qualified-name-like value (`Ready`, `example.com/Ready`).
 */
export function validateConditionType(type: string): string[] {
  const errors: string[] = [];
  if (type.length > typeMaxLength) errors.push(`must be no more than ${typeMaxLength} characters`);
  if (!typePattern.test(type)) {
    errors.push(
      "a condition type must consist of alphanumeric characters, '-', '_' or '.', start and end with an alphanumeric character, with an optional DNS subdomain prefix and '/' (e.g. 'Ready' or 'example.com/Ready')",
    );
  }
  return errors;
}

/**
 * Checks `condition` against the `metav1.Condition` schema.
 *
 * @throws {ConditionError} naming the first invalid field, its value and the rule.
 */
export function validateCondition(condition: ConditionInput): void {
  const fail = (field: ConditionField, problem: string): never => {
    throw new ConditionError(
      `invalid condition ${JSON.stringify(condition.type)}: ${field} ${problem}`,
      field,
    );
  };
  const typeErrors = validateConditionType(condition.type);
  if (typeErrors.length > 0)
    fail('type', `${JSON.stringify(condition.type)}: ${typeErrors.join('; ')}`);
  if (!conditionStatuses.includes(condition.status)) {
    fail('status', `${JSON.stringify(condition.status)} must be one of "True", "False", "Unknown"`);
  }
  const reasonErrors = validateConditionReason(condition.reason);
  if (reasonErrors.length > 0) {
    fail('reason', `${JSON.stringify(condition.reason)}: ${reasonErrors.join('; ')}`);
  }
  if (condition.message.length > messageMaxLength) {
    fail('message', `must be no more than ${messageMaxLength} characters; shorten it`);
  }
  const generation = condition.observedGeneration;
  if (generation !== undefined && !(Number.isSafeInteger(generation) && generation >= 0)) {
    fail(
      'observedGeneration',
      `${generation} must be a whole number >= 0 (the object's metadata.generation)`,
    );
  }
  const time = condition.lastTransitionTime;
  if (time !== undefined && (!rfc3339Pattern.test(time) || Number.isNaN(Date.parse(time)))) {
    fail(
      'lastTransitionTime',
      `${JSON.stringify(time)} is not an RFC 3339 time; use the form "2024-05-01T12:00:00Z" or leave it out to use now`,
    );
  }
}

/**
 * `date` (default now) as a `metav1.Time`: RFC 3339 in UTC with whole seconds
 * (`2024-05-01T12:00:00Z`).
 */
export function formatRfc3339Seconds(date: Date = new Date()): string {
  return date.toISOString().replace(/\.\d+Z$/, 'Z');
}

/**
 * A condition as {@link putCondition} reads and writes it: `metav1.Condition`'s fields and the
 * times some built-in kinds add, each of any JSON type until it is set (a built-in kind's
 * conditions arrive as decoded JSON).
 */
interface ConditionRecord {
  type?: unknown;
  status?: unknown;
  lastUpdateTime?: unknown;
  lastTransitionTime?: unknown;
  reason?: unknown;
  message?: unknown;
  observedGeneration?: unknown;
  lastProbeTime?: unknown;
}

/** What {@link putCondition} sets: a condition whose reason, message and times may be absent. */
interface ConditionFields {
  type: string;
  status: ConditionStatus;
  reason?: string;
  message?: string;
  observedGeneration?: number;
  lastTransitionTime?: string;
}

/** What a built-in kind's conditions add to {@link putCondition}'s rules. */
interface BuiltInRules {
  /** Keep `lastUpdateTime` (apps/v1 `DeploymentCondition`). */
  lastUpdateTime: boolean;
}

/**
 * The one condition setter, shared by {@link setStatusCondition} and
 * {@link setBuiltInCondition}: sets `condition` in `conditions` in place and returns whether
 * anything changed.
 *
 * - no condition of that `type` yet: appends `type`, `status`, (`lastUpdateTime`,)
 *   `lastTransitionTime` (the input's or `now`), then `reason`, `message` and
 *   `observedGeneration` when given;
 * - `status` differs: updates it and sets `lastTransitionTime` to the input's or `now`;
 * - `reason`, `message` or `observedGeneration` differ: updates them without moving
 *   `lastTransitionTime` (an absent one is removed; an absent `observedGeneration` counts as
 *   0).
 *
 * With `builtIn` (a built-in kind's condition), also: a missing `lastTransitionTime` is set;
 * with `builtIn.lastUpdateTime`, `lastUpdateTime` is set to `now` when the condition is new,
 * changed, or had none; and a `lastProbeTime` is removed when the condition changed (its
 * status, reason, message or observedGeneration).
 */
function putCondition(
  conditions: ConditionRecord[],
  condition: ConditionFields,
  now: () => string,
  builtIn?: BuiltInRules,
): boolean {
  const transitionTime = (): string => condition.lastTransitionTime ?? now();
  const existing = conditions.find((candidate) => candidate.type === condition.type);
  if (existing === undefined) {
    const added: ConditionRecord = { type: condition.type, status: condition.status };
    if (builtIn?.lastUpdateTime) added.lastUpdateTime = now();
    added.lastTransitionTime = transitionTime();
    if (condition.reason !== undefined) added.reason = condition.reason;
    if (condition.message !== undefined) added.message = condition.message;
    if (condition.observedGeneration !== undefined) {
      added.observedGeneration = condition.observedGeneration;
    }
    conditions.push(added);
    return true;
  }
  let changed = false;
  // Times filled in where a built-in kind's condition lacked them: a write, not a change.
  let filled = false;
  if (existing.status !== condition.status) {
    existing.status = condition.status;
    existing.lastTransitionTime = transitionTime();
    changed = true;
  } else if (builtIn !== undefined && existing.lastTransitionTime === undefined) {
    existing.lastTransitionTime = transitionTime();
    filled = true;
  }
  for (const field of ['reason', 'message'] as const) {
    if (existing[field] === condition[field]) continue;
    if (condition[field] === undefined) delete existing[field];
    else existing[field] = condition[field];
    changed = true;
  }
  if ((existing.observedGeneration ?? 0) !== (condition.observedGeneration ?? 0)) {
    if (condition.observedGeneration === undefined) delete existing.observedGeneration;
    else existing.observedGeneration = condition.observedGeneration;
    changed = true;
  }
  if (builtIn === undefined) return changed;
  if (builtIn.lastUpdateTime && (changed || existing.lastUpdateTime === undefined)) {
    existing.lastUpdateTime = now();
    filled = true;
  }
  if (changed) delete existing.lastProbeTime;
  return changed || filled;
}

/**
 * Sets `condition` in `conditions` (in place), as apimachinery's `meta.SetStatusCondition`:
 *
 * - no condition of that `type` yet: appends a copy, with `lastTransitionTime` from the input
 *   or now;
 * - `status` differs: updates it and sets `lastTransitionTime` to the input's or now;
 * - `reason`, `message` or `observedGeneration` differ: updates them without moving
 *   `lastTransitionTime` (an absent `observedGeneration` counts as 0 and is removed).
 *
 * Returns whether anything changed (so the caller knows whether to update the status).
 * Other conditions and the order of the list are kept.
 *
 * @throws {ConditionError} when `condition` is invalid (see {@link validateCondition}); the
 *   list is unchanged.
 */
export function setStatusCondition(
  conditions: Condition[],
  condition: ConditionInput,
  options: SetStatusConditionOptions = {},
): boolean {
  validateCondition(condition);
  const now = options.now ?? (() => new Date());
  return putCondition(conditions, condition, () => formatRfc3339Seconds(now()));
}

/**
 * One condition of a built-in kind's status as its controller computes it (core/v1
 * `PodCondition` and `NamespaceCondition`, apps/v1 `DeploymentCondition` and
 * `ReplicaSetCondition`, batch/v1 `JobCondition`): unlike `metav1.Condition`, `reason` and
 * `message` are optional, and absent ones are left out.
 */
export interface BuiltInConditionInput {
  type: string;
  status: ConditionStatus;
  reason?: string;
  message?: string;
}

/** Options of {@link setBuiltInCondition}. */
export interface SetBuiltInConditionOptions {
  /** The time to stamp, RFC 3339 (one write stamps all its conditions alike). */
  now: string;
  /** Also keep `lastUpdateTime`, as apps/v1 `DeploymentCondition` has. Default false. */
  lastUpdateTime?: boolean;
}

/**
 * `conditions` (a built-in kind's `status.conditions` as decoded JSON; entries that are not
 * objects are dropped) with `condition` set, as a new list: the input and its entries are not
 * changed, so an object read from a cache can be passed. The rules are
 * {@link setStatusCondition}'s, with what the built-in kinds add: an absent `reason` or
 * `message` is removed, a missing `lastTransitionTime` is set, with `lastUpdateTime` that
 * time moves when the status, reason or message change, and a `lastProbeTime` is dropped when
 * anything changed. Setting a condition that is already so gives an equal list. Not
 * validated: the built-in kinds' conditions are not held to `metav1.Condition`'s rules.
 */
export function setBuiltInCondition(
  conditions: readonly unknown[],
  condition: BuiltInConditionInput,
  options: SetBuiltInConditionOptions,
): Array<Record<string, unknown>> {
  const list = conditions.filter(isJsonObject).map((entry) => ({ ...entry }));
  putCondition(list, condition, () => options.now, {
    lastUpdateTime: options.lastUpdateTime ?? false,
  });
  return list;
}

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
 * Other conditions and their order are kept; the conditions the object held are not changed
 * (a changed list replaces them), so an object read from a cache can be passed.
 *
 * @throws {ConditionError} when the type or reason is invalid (see {@link validateCondition});
 *   the object is unchanged.
 */
export function setCondition(
  object: ObjectWithConditions,
  update: ConditionUpdate,
  options: SetStatusConditionOptions = {},
): boolean {
  const conditions = (object.status?.conditions ?? []).map((condition) => ({ ...condition }));
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

/** The condition of type `type`, or `undefined`. Returns the element itself, not a copy. */
export function findStatusCondition(
  conditions: readonly Condition[] | undefined,
  type: string,
): Condition | undefined {
  return conditions?.find((condition) => condition.type === type);
}

/** Removes the condition of type `type` in place; returns whether there was one. */
export function removeStatusCondition(conditions: Condition[] | undefined, type: string): boolean {
  if (conditions === undefined) return false;
  const index = conditions.findIndex((condition) => condition.type === type);
  if (index === -1) return false;
  conditions.splice(index, 1);
  return true;
}

/** Whether the condition of type `type` is present with status `status`. */
export function isStatusConditionPresentAndEqual(
  conditions: readonly Condition[] | undefined,
  type: string,
  status: ConditionStatus,
): boolean {
  return findStatusCondition(conditions, type)?.status === status;
}

/** Whether the condition of type `type` is present and `True`. */
export function isStatusConditionTrue(
  conditions: readonly Condition[] | undefined,
  type: string,
): boolean {
  return isStatusConditionPresentAndEqual(conditions, type, 'True');
}

/** Whether the condition of type `type` is present and `False` (absent is neither). */
export function isStatusConditionFalse(
  conditions: readonly Condition[] | undefined,
  type: string,
): boolean {
  return isStatusConditionPresentAndEqual(conditions, type, 'False');
}

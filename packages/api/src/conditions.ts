/**
 * Status conditions (`metav1.Condition`) with the semantics of apimachinery's
 * `meta.SetStatusCondition` and friends: one condition per `type`, and `lastTransitionTime`
 * moves only when `status` changes.
 */
import { ConditionError, type ConditionField } from './errors/condition-error.js';

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
  const transitionTime = (): string =>
    condition.lastTransitionTime ?? formatRfc3339Seconds((options.now ?? (() => new Date()))());
  const existing = findStatusCondition(conditions, condition.type);
  if (existing === undefined) {
    const added: Condition = {
      type: condition.type,
      status: condition.status,
      lastTransitionTime: transitionTime(),
      reason: condition.reason,
      message: condition.message,
    };
    if (condition.observedGeneration !== undefined) {
      added.observedGeneration = condition.observedGeneration;
    }
    conditions.push(added);
    return true;
  }
  let changed = false;
  if (existing.status !== condition.status) {
    existing.status = condition.status;
    existing.lastTransitionTime = transitionTime();
    changed = true;
  }
  if (existing.reason !== condition.reason) {
    existing.reason = condition.reason;
    changed = true;
  }
  if (existing.message !== condition.message) {
    existing.message = condition.message;
    changed = true;
  }
  if ((existing.observedGeneration ?? 0) !== (condition.observedGeneration ?? 0)) {
    if (condition.observedGeneration === undefined) delete existing.observedGeneration;
    else existing.observedGeneration = condition.observedGeneration;
    changed = true;
  }
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

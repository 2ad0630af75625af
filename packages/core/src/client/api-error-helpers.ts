import { ApiError } from '../errors/api-error.js';

const hasReason = (error: unknown, ...reasons: string[]): boolean =>
  ApiError.isInstance(error) && reasons.includes(error.reason);

/** Whether `error` is an {@link ApiError} for an object (or resource) that does not exist (404). */
export function isNotFound(error: unknown): boolean {
  return hasReason(error, 'NotFound');
}

/** Whether `error` is an {@link ApiError} for a create whose name is taken (409 `AlreadyExists`). */
export function isAlreadyExists(error: unknown): boolean {
  return hasReason(error, 'AlreadyExists');
}

/**
 * Whether `error` is an {@link ApiError} for a write based on a stale `resourceVersion`
 * (409 `Conflict`); retry with {@link retryOnConflict}.
 */
export function isConflict(error: unknown): boolean {
  return hasReason(error, 'Conflict');
}

/** Whether `error` is an {@link ApiError} for an object the server refused as invalid (422); see `details.causes`. */
export function isInvalid(error: unknown): boolean {
  return hasReason(error, 'Invalid');
}

/** Whether `error` is an {@link ApiError} for a call RBAC denies (403); the message names the rule to add. */
export function isForbidden(error: unknown): boolean {
  return hasReason(error, 'Forbidden');
}

/** Whether `error` is an {@link ApiError} for bad credentials (401). */
export function isUnauthorized(error: unknown): boolean {
  return hasReason(error, 'Unauthorized');
}

/**
 * Whether `error` is an {@link ApiError} for an expired resourceVersion or continue token:
 * code 410, reason `Gone` or `Expired`. Start the list or watch again.
 */
export function isGone(error: unknown): boolean {
  return ApiError.isInstance(error) && (error.code === 410 || hasReason(error, 'Gone', 'Expired'));
}

/** Whether `error` is an {@link ApiError} for a throttled call (429); see `retryAfterSeconds`. */
export function isTooManyRequests(error: unknown): boolean {
  return hasReason(error, 'TooManyRequests');
}

/** Whether `error` is an {@link ApiError} for a call that got no answer (server unreachable, timeout). */
export function isConnectionFailed(error: unknown): boolean {
  return hasReason(error, 'ConnectionFailed');
}

const isPromiseLike = (value: unknown): value is PromiseLike<unknown> =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as { then?: unknown }).then === 'function';

/**
 * Treats "not found" as success, like controller-runtime's `client.IgnoreNotFound`:
 *
 * - given a promise, resolves with its value, or `undefined` when it rejects with NotFound;
 *   any other rejection passes through unchanged;
 * - given an error (in a `catch`), returns `undefined` when it is NotFound and rethrows it
 *   otherwise.
 */
export function ignoreNotFound<T>(promise: PromiseLike<T>): Promise<T | undefined>;
export function ignoreNotFound(error: unknown): undefined;
export function ignoreNotFound<T>(
  subject: PromiseLike<T> | unknown,
): Promise<T | undefined> | undefined {
  if (isPromiseLike(subject)) {
    return Promise.resolve(subject as PromiseLike<T>).then(
      (value) => value,
      (error: unknown) => {
        if (isNotFound(error)) return undefined;
        throw error;
      },
    );
  }
  if (isNotFound(subject)) return undefined;
  throw subject;
}

const marker = Symbol.for('@ops/core.HealthServerError');

/** Why the health or metrics server refused a call. */
export type HealthServerErrorReason =
  /** A check name is empty, contains `/`, `?`, `#` or whitespace. */
  | 'InvalidCheckName'
  /** A check of that name is already registered on that endpoint. */
  | 'DuplicateCheck'
  /** `start` was called on a server that is already started or starting. */
  | 'AlreadyStarted'
  /** `start` was called on a server that has been stopped; create a new server instead. */
  | 'Stopped';

/**
 * A misuse of the {@link HealthServer} or {@link MetricsServer}: a bad or duplicate check
 * name, or a lifecycle call out of order. Recognise it with
 * {@link HealthServerError.isInstance}, which works even when two copies of `@ops/core` are
 * loaded.
 */
export class HealthServerError extends Error {
  readonly [marker] = true;
  override readonly name = 'HealthServerError';

  constructor(
    readonly reason: HealthServerErrorReason,
    message: string,
  ) {
    super(message);
  }

  static isInstance(error: unknown): error is HealthServerError {
    return typeof error === 'object' && error !== null && marker in error;
  }
}

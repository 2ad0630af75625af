import type { Status, StatusDetails, StatusReason } from '@ops/api';

const marker = Symbol.for('@ops/core.ApiError');

/**
 * The `reason` of a failed API call: a `metav1.StatusReason` the server sent (or that its
 * HTTP code implies), or one the client adds when there was no usable answer:
 * `ConnectionFailed` (the server could not be reached, the request timed out or was aborted)
 * and `UnexpectedResponse` (an answer that is not the JSON the call expects).
 */
export type ApiErrorReason =
  | StatusReason
  | 'Unknown'
  | 'ConnectionFailed'
  | 'UnexpectedResponse'
  | (string & {});

/**
 * Every failed call to the Kubernetes API, whatever the operation: the answer's HTTP `code`
 * (0 when no answer arrived), its `reason`, the `status` body (built by the client when the
 * server sent none), and `details` (with `causes` for invalid objects).
 *
 * `message` is the server's message, extended with what to do about it (e.g. the RBAC rule
 * a 403 calls for). Test for a reason with the helpers `isNotFound`, `isConflict`, ... of
 * the client, or recognise the class with {@link ApiError.isInstance}, which works even when
 * two copies of `@ops/core` are loaded.
 */
export class ApiError extends Error {
  readonly [marker] = true;
  override readonly name = 'ApiError';
  /** `status.details`, never undefined (`causes` may be). */
  readonly details: StatusDetails;

  constructor(
    /** The HTTP status code, or 0 when the server could not be reached. */
    readonly code: number,
    readonly reason: ApiErrorReason,
    message: string,
    /** The Status body of the answer (or the equivalent the client built). */
    readonly status: Status,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.details = status.details ?? {};
  }

  /** Seconds the server asked to wait before retrying (`details.retryAfterSeconds`), if any. */
  get retryAfterSeconds(): number | undefined {
    return this.details.retryAfterSeconds;
  }

  static isInstance(error: unknown): error is ApiError {
    return typeof error === 'object' && error !== null && marker in error;
  }
}

/**
 * `metav1.Status`: the body the Kubernetes API answers a failed request with (and the
 * `status` of a denied admission). Plain JSON; every field is optional on the wire, so readers
 * must not assume one is set. Servers that build a Status fill in what kube-apiserver does.
 */

/** The `reason` values kube-apiserver sends in a failure Status (`metav1.StatusReason`). */
export type StatusReason =
  | 'BadRequest'
  | 'Unauthorized'
  | 'Forbidden'
  | 'NotFound'
  | 'AlreadyExists'
  | 'Conflict'
  | 'Gone'
  | 'Invalid'
  | 'ServerTimeout'
  | 'Timeout'
  | 'TooManyRequests'
  | 'MethodNotAllowed'
  | 'NotAcceptable'
  | 'RequestEntityTooLarge'
  | 'UnsupportedMediaType'
  | 'InternalError'
  | 'Expired'
  | 'ServiceUnavailable'
  | 'StorageReadError';

/**
 * The machine-readable kind of a {@link StatusCause} (`metav1.CauseType`), as apimachinery's
 * `field.ErrorType` names them: what is wrong with one field.
 */
export type CauseType =
  | 'FieldValueNotFound'
  | 'FieldValueRequired'
  | 'FieldValueDuplicate'
  | 'FieldValueInvalid'
  | 'FieldValueNotSupported'
  | 'FieldValueForbidden'
  | 'FieldValueTooLong'
  | 'FieldValueTooMany'
  | 'FieldValueTypeInvalid'
  | 'InternalError';

/** One cause of a failure (`metav1.StatusCause`), e.g. one invalid field. */
export interface StatusCause {
  /** Machine-readable cause, usually a {@link CauseType} such as `FieldValueInvalid`. */
  reason?: CauseType | (string & {});
  /** Human-readable description, shown as-is to users. */
  message?: string;
  /** The field at fault, as a JSON path such as `spec.containers[0].image` or `metadata.name`. */
  field?: string;
}

/** `details` of a failure Status (`metav1.StatusDetails`). */
export interface StatusDetails {
  name?: string;
  group?: string;
  /** The kind, or for most errors the plural resource name. */
  kind?: string;
  uid?: string;
  causes?: StatusCause[];
  /** Seconds the client should wait before retrying. */
  retryAfterSeconds?: number;
}

/** A `metav1.Status` object, as the API server sends it with a failure (or a webhook's denial). */
export interface Status {
  kind?: 'Status';
  apiVersion?: string;
  metadata?: Record<string, unknown>;
  status?: 'Failure' | 'Success' | (string & {});
  /** Human-readable message. */
  message?: string;
  /** Machine-readable reason; `''` when none applies. */
  reason?: StatusReason | (string & {});
  details?: StatusDetails;
  /** The HTTP status code of the answer. */
  code?: number;
}

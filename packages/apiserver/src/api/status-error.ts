import type { Status, StatusDetails, StatusReason } from '@ops/api';
import { type FieldError, fieldErrorCause, formatFieldErrors } from './field-error.js';

export type { Status, StatusDetails, StatusReason };

const marker = Symbol.for('@ops/apiserver.StatusError');

/** What a resource is, for wording errors: `deployments.apps`, kind `Deployment`. */
export interface ResourceRef {
  group: string;
  /** Plural resource name, e.g. `deployments` (or give it as `plural`). */
  resource?: string;
  plural?: string;
  kind: string;
}

const resourceOf = (ref: ResourceRef): string => ref.resource ?? ref.plural ?? '';
const qualified = (ref: ResourceRef): string =>
  ref.group ? `${resourceOf(ref)}.${ref.group}` : resourceOf(ref);
const qualifiedKind = (ref: ResourceRef): string =>
  ref.group ? `${ref.kind}.${ref.group}` : ref.kind;

/**
 * An API request that failed: carries the HTTP code and the Status body kube-apiserver would
 * send. The constructors word messages exactly as kube-apiserver does, since clients and
 * users match on them.
 */
export class StatusError extends Error {
  readonly [marker] = true;
  override readonly name = 'StatusError';

  constructor(
    readonly code: number,
    /** `''` is kube's `StatusReasonUnknown`: the Status then has no `reason`. */
    readonly reason: StatusReason | '',
    message: string,
    readonly details?: StatusDetails,
  ) {
    super(message);
  }

  static isInstance(error: unknown): error is StatusError {
    return typeof error === 'object' && error !== null && marker in error;
  }

  /** The Status body. */
  toStatus(): Status {
    return {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: this.message,
      ...(this.reason ? { reason: this.reason } : {}),
      ...(this.details ? { details: this.details } : {}),
      code: this.code,
    };
  }

  static badRequest(message: string): StatusError {
    return new StatusError(400, 'BadRequest', message);
  }

  static notFound(ref: ResourceRef, name: string): StatusError {
    return new StatusError(404, 'NotFound', `${qualified(ref)} "${name}" not found`, {
      name,
      group: ref.group,
      kind: resourceOf(ref),
    });
  }

  static alreadyExists(ref: ResourceRef, name: string): StatusError {
    return new StatusError(409, 'AlreadyExists', `${qualified(ref)} "${name}" already exists`, {
      name,
      group: ref.group,
      kind: resourceOf(ref),
    });
  }

  static conflict(ref: ResourceRef, name: string, why: string): StatusError {
    return new StatusError(
      409,
      'Conflict',
      `Operation cannot be fulfilled on ${qualified(ref)} "${name}": ${why}`,
      { name, group: ref.group, kind: ref.resource },
    );
  }

  static invalid(ref: ResourceRef, name: string, errors: readonly FieldError[]): StatusError {
    return new StatusError(
      422,
      'Invalid',
      `${qualifiedKind(ref)} "${name}" is invalid: ${formatFieldErrors(errors)}`,
      // Status details omit an empty name, as Go's `omitempty` does (e.g. ListOptions).
      {
        ...(name ? { name } : {}),
        group: ref.group,
        kind: ref.kind,
        causes: errors.map(fieldErrorCause),
      },
    );
  }

  static forbidden(ref: ResourceRef, name: string, why: string): StatusError {
    const subject = name ? `${qualified(ref)} "${name}"` : qualified(ref);
    return new StatusError(403, 'Forbidden', `${subject} is forbidden: ${why}`, {
      ...(name ? { name } : {}),
      group: ref.group,
      kind: resourceOf(ref),
    });
  }

  static gone(message: string): StatusError {
    return new StatusError(410, 'Expired', message);
  }

  static methodNotAllowed(message: string): StatusError {
    return new StatusError(405, 'MethodNotAllowed', message);
  }

  static unsupportedMediaType(contentType: string): StatusError {
    return new StatusError(
      415,
      'UnsupportedMediaType',
      `the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml; found ${contentType}`,
    );
  }

  /** kube's `NewInternalError`: 500, one cause carrying only the error's text. */
  static internal(message: string): StatusError {
    return new StatusError(500, 'InternalError', `Internal error occurred: ${message}`, {
      causes: [{ message }],
    });
  }

  /**
   * An error kube-apiserver passes on without a Status of its own (`ErrorToAPIStatus` of a
   * plain Go error): 500, no reason, the error's text as the message.
   */
  static unknown(message: string): StatusError {
    return new StatusError(500, '', message);
  }

  static tooManyRequests(message: string, retryAfterSeconds = 1): StatusError {
    return new StatusError(429, 'TooManyRequests', message, { retryAfterSeconds });
  }
}

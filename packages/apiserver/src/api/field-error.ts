import type { CauseType, StatusCause } from '@ops/api';

/**
 * Field errors as kube-apiserver reports them (apimachinery's `field.Error`): a field path, a
 * type, the offending value and a detail. They become the `details.causes` of an `Invalid`
 * Status, and their text is what kubectl prints.
 */

/** One problem with one field. */
export interface FieldError {
  type: CauseType;
  /** The path, as kube-apiserver writes it: `spec.containers[0].image`, `metadata.labels[app]`. */
  field: string;
  /** The offending value; omitted for types that print none (Required, Forbidden, TooLong, Internal). */
  value?: unknown;
  /** Why, in kube-apiserver's words; may be empty. */
  detail?: string;
}

const typeText: Record<CauseType, string> = {
  FieldValueNotFound: 'Not found',
  FieldValueRequired: 'Required value',
  FieldValueDuplicate: 'Duplicate value',
  FieldValueInvalid: 'Invalid value',
  FieldValueNotSupported: 'Unsupported value',
  FieldValueForbidden: 'Forbidden',
  FieldValueTooLong: 'Too long',
  FieldValueTooMany: 'Too many',
  FieldValueTypeInvalid: 'Invalid value',
  InternalError: 'Internal error',
};

const valueless = new Set<CauseType>([
  'FieldValueRequired',
  'FieldValueForbidden',
  'FieldValueTooLong',
  'InternalError',
]);

function formatValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') {
    return String(value);
  }
  return JSON.stringify(value);
}

/** The error without its field path, e.g. `Invalid value: "x": must be a number`. */
export function fieldErrorBody(error: FieldError): string {
  let body = typeText[error.type];
  if (!valueless.has(error.type) && 'value' in error) {
    body += `: ${formatValue(error.value)}`;
  }
  if (error.detail) body += `: ${error.detail}`;
  return body;
}

/** The whole error, e.g. `spec.image: Required value`. */
export function formatFieldError(error: FieldError): string {
  return `${error.field}: ${fieldErrorBody(error)}`;
}

/** The Status cause for a field error. */
export function fieldErrorCause(error: FieldError): StatusCause {
  return { reason: error.type, message: fieldErrorBody(error), field: error.field };
}

/** Field errors joined as kube-apiserver joins them: one bare, several in `[a, b]`. */
export function formatFieldErrors(errors: readonly FieldError[]): string {
  const messages = [...new Set(errors.map(formatFieldError))];
  return messages.length === 1 ? (messages[0] ?? '') : `[${messages.join(', ')}]`;
}

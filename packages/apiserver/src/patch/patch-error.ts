/**
 * The errors kube-apiserver answers a PATCH it cannot apply with, and the Go formatting their
 * messages quote values in (clients show these messages to users, so the wording matches).
 */
import { StatusError } from '../api/status-error.js';
import { type JsonValue, jsonKind } from './json-value.js';

/**
 * 422 Invalid with kube-apiserver's generic wording, as
 * `errors.NewGenericServerResponse(422, ...)` builds it: what the server answers when a JSON
 * patch operation fails (a `test` that does not hold, a path that does not exist, an unknown
 * `op`) or a strategic merge patch nests lists in lists. The underlying reason is not part of
 * the answer; kubectl prints `The request is invalid: the server rejected our request due to
 * an error in our request`.
 */
export function patchRejected(): StatusError {
  return new StatusError(
    422,
    'Invalid',
    'the server rejected our request due to an error in our request',
    {},
  );
}

/** 400 BadRequest carrying `message` as is (`errors.NewBadRequest`). */
export function patchBadRequest(message: string): StatusError {
  return new StatusError(400, 'BadRequest', message);
}

/**
 * 500 for a strategic merge patch the merge code refuses with an ordinary Go error (a list
 * item without its merge key, an unknown `$patch` value ...). kube-apiserver sends these
 * with the error text as the whole message and an empty reason, which `StatusReason` cannot
 * express: the reason here is `InternalError`, the code and message are kube-apiserver's.
 */
export function patchInternal(message: string): StatusError {
  return new StatusError(500, 'InternalError', message);
}

/**
 * 422 Invalid for a patch whose result is not an object and so cannot be decoded back into
 * one (`errors.NewInvalid` with an empty kind and name, one `patch` field error).
 */
export function patchResultNotObject(result: JsonValue): StatusError {
  const value = JSON.stringify(result) ?? 'null';
  return StatusError.invalid({ group: '', resource: '', kind: '' }, '', [
    {
      type: 'FieldValueInvalid',
      field: 'patch',
      value,
      detail: `couldn't decode the patched object: expected a JSON object, got ${jsonKind(result)}`,
    },
  ]);
}

/** `value` as Go's `%v` prints the decoded JSON value (`map[k:v]`, `[a b]`, `<nil>`). */
export function goFormat(value: JsonValue | undefined): string {
  if (value === null || value === undefined) return '<nil>';
  if (Array.isArray(value)) return `[${value.map(goFormat).join(' ')}]`;
  switch (typeof value) {
    case 'string':
      return value;
    case 'number':
    case 'boolean':
      return String(value);
    default: {
      const keys = Object.keys(value).sort();
      return `map[${keys.map((key) => `${key}:${goFormat(value[key])}`).join(' ')}]`;
    }
  }
}

/** The Go type a decoded JSON value has (`map[string]interface {}`, `int64` ...). */
export function goType(value: JsonValue | undefined): string {
  if (value === null || value === undefined) return '<nil>';
  if (Array.isArray(value)) return '[]interface {}';
  switch (typeof value) {
    case 'string':
      return 'string';
    case 'boolean':
      return 'bool';
    case 'number':
      return Number.isInteger(value) ? 'int64' : 'float64';
    default:
      return 'map[string]interface {}';
  }
}

/** `value` as Go's `%s` prints it: strings bare, anything else as `%!s(type=value)`. */
export function goFormatString(value: JsonValue | undefined): string {
  if (typeof value === 'string') return value;
  if (value === null || value === undefined) return '%!s(<nil>)';
  return `%!s(${goType(value)}=${goFormat(value)})`;
}

/** The JSON type name Go's decoder uses in `cannot unmarshal X into ...` errors. */
export function goJsonTypeName(value: JsonValue): string {
  switch (jsonKind(value)) {
    case 'boolean':
      return 'bool';
    default:
      return jsonKind(value);
  }
}

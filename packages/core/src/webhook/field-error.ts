/**
 * Field errors returned by validating webhooks, and how they become the `Status` of a denial.
 */

import type { CauseType, StatusCause } from '@ops/api';

/**
 * One problem found by a validator.
 *
 * - `field`: the JSON path of the offending field (`spec.image`, `spec.containers[0].name`),
 *   or `''` when the problem is with the object as a whole.
 * - `message`: what is wrong, for the user. With a single error it is shown verbatim:
 *   `admission webhook "<name>" denied the request: <message>`.
 * - `type`: the machine-readable reason, `FieldValueInvalid` by default.
 */
export interface FieldError {
  field: string;
  message: string;
  type?: CauseType;
}

/**
 * The denial message for `errors`:
 *
 * - one error: its `message`, unchanged (no field prefix), so a validator controls exactly
 *   what kubectl prints;
 * - several: `[<field>: <message>, <field>: <message>]`, each prefixed with its field (when
 *   not empty) so the errors can be told apart — the format of apimachinery's aggregate
 *   error, which is how Go webhooks join an `ErrorList`.
 *
 * Returns `''` for an empty list.
 */
export function formatFieldErrors(errors: readonly FieldError[]): string {
  if (errors.length === 0) return '';
  const [first] = errors;
  if (errors.length === 1 && first !== undefined) return first.message;
  return `[${errors.map((error) => (error.field === '' ? error.message : `${error.field}: ${error.message}`)).join(', ')}]`;
}

/** The `details.causes` of a denial: one cause per error, in order. */
export function fieldErrorsToCauses(errors: readonly FieldError[]): StatusCause[] {
  return errors.map((error) => ({
    reason: error.type ?? 'FieldValueInvalid',
    message: error.message,
    field: error.field,
  }));
}

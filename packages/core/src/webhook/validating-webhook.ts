import type { KubernetesObject } from '@ops/api';
import { isJsonObject } from '@ops/api';
import {
  type AdmissionHandler,
  admissionAllowed,
  admissionDenied,
  admissionErrored,
} from './admission-handler.js';
import { type FieldError, fieldErrorsToCauses, formatFieldErrors } from './field-error.js';
import { toWebhookRequest, type WebhookRequest } from './webhook-request.js';

/**
 * A validation function: returns the problems with `obj` (nothing or `[]` when it is valid).
 * `oldObj` is the stored object on UPDATE and `undefined` otherwise.
 */
export type Validator<T extends object> = (
  obj: T,
  oldObj: T | undefined,
  request: WebhookRequest,
) => readonly FieldError[] | undefined | Promise<readonly FieldError[] | undefined>;

/** How a {@link validatingWebhook} words a denial. */
export interface ValidatingWebhookOptions {
  /**
   * `Forbidden` (default): `code: 403, reason: 'Forbidden'`, like controller-runtime's
   * `Denied(err.Error())` for a plain Go error. kubectl then prints
   * `Error from server (Forbidden): ... admission webhook "<name>" denied the request: <message>`.
   *
   * `Invalid`: `code: 422, reason: 'Invalid'`, like a Go webhook returning
   * `apierrors.NewInvalid`. The API error's message is the same, but kubectl special-cases
   * `Invalid` and prints `The <Kind> "<name>" is invalid: <field>: <message>` from the causes
   * instead, without the webhook's name or the message.
   *
   * Both carry `details.causes`: one `{ reason, message, field }` per {@link FieldError}.
   */
  reason?: 'Forbidden' | 'Invalid';
}

/**
 * An {@link AdmissionHandler} for a validating webhook built from `fn`.
 *
 * - CREATE: `fn(request.object, undefined, request)`.
 * - UPDATE: `fn(request.object, request.oldObject, request)`.
 * - DELETE: `fn(request.oldObject, undefined, request)`: the object being deleted is in
 *   `oldObject` (kube-apiserver sends no `object` on DELETE).
 * - CONNECT: allowed without calling `fn`, as controller-runtime does; register a raw
 *   {@link AdmissionHandler} to check CONNECT requests.
 *
 * The objects are typed as `T` without a run-time check. No errors → allowed. Errors →
 * denied with the message of {@link formatFieldErrors} (a single error's message verbatim;
 * several as `[field: message, ...]`) and `details.causes`, with the status chosen by
 * {@link ValidatingWebhookOptions.reason}. `request.warn(message)` adds warnings, which are
 * returned with either decision. If `fn` throws, the server denies with code 500 and the
 * error's message. A missing object is denied with code 400.
 */
export function validatingWebhook<T extends object = KubernetesObject>(
  fn: Validator<T>,
  options: ValidatingWebhookOptions = {},
): AdmissionHandler {
  const reason = options.reason ?? 'Forbidden';
  return async (admissionRequest) => {
    const { operation } = admissionRequest;
    if (operation === 'CONNECT') return admissionAllowed();
    const field = operation === 'DELETE' ? 'oldObject' : 'object';
    const obj = admissionRequest[field];
    if (!isJsonObject(obj)) {
      return admissionErrored(
        400,
        `AdmissionReview request.${field} must be an object for a ${operation} request`,
      );
    }
    let oldObj: KubernetesObject | undefined;
    if (operation === 'UPDATE') {
      const old = admissionRequest.oldObject;
      if (!isJsonObject(old)) {
        return admissionErrored(
          400,
          'AdmissionReview request.oldObject must be an object for an UPDATE request',
        );
      }
      oldObj = old;
    }
    const { request, warnings } = toWebhookRequest(admissionRequest);
    const result: unknown = await fn(
      obj as unknown as T,
      oldObj as unknown as T | undefined,
      request,
    );
    if (result === undefined || result === null) return admissionAllowed(warnings);
    if (!Array.isArray(result)) {
      return admissionErrored(
        500,
        `validating webhook function returned ${typeof result}; return an array of FieldError (empty when valid) or nothing`,
      );
    }
    const errors = result as FieldError[];
    if (errors.length === 0) return admissionAllowed(warnings);
    return admissionDenied(
      formatFieldErrors(errors),
      {
        code: reason === 'Invalid' ? 422 : 403,
        reason,
        details: {
          ...(admissionRequest.name ? { name: admissionRequest.name } : {}),
          group: admissionRequest.kind.group,
          kind: admissionRequest.kind.kind,
          causes: fieldErrorsToCauses(errors),
        },
      },
      warnings,
    );
  };
}

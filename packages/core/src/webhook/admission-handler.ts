/**
 * The handler contract of the webhook server and the responses handlers build from.
 */

import type { Status } from '@ops/api';
import type { AdmissionRequest, AdmissionResponse } from './admission-review.js';

/**
 * An admission decision without the `uid`, which the server fills in from the request.
 * Build one with {@link admissionAllowed}, {@link admissionDenied}, {@link admissionErrored}
 * or {@link admissionPatched}, or write it by hand.
 */
export type AdmissionResult = Omit<AdmissionResponse, 'uid'>;

/**
 * Decides one admission request. The server calls it for every AdmissionReview POSTed to the
 * path it is registered at and echoes the request's `uid` in the response.
 *
 * A handler that throws or rejects does not crash the server: the request is denied with
 * code 500 and the error's message (and the error is logged).
 */
export type AdmissionHandler = (
  request: AdmissionRequest,
) => AdmissionResult | Promise<AdmissionResult>;

/** Allows the request, with an optional warning list. */
export function admissionAllowed(warnings?: readonly string[]): AdmissionResult {
  return withWarnings({ allowed: true }, warnings);
}

/**
 * Denies the request with `message`, which kube-apiserver shows as
 * `admission webhook "<name>" denied the request: <message>`. `status` adds to or overrides
 * the default `code: 403, reason: 'Forbidden'` (controller-runtime's `Denied`).
 */
export function admissionDenied(
  message: string,
  status: Omit<Status, 'message'> = {},
  warnings?: readonly string[],
): AdmissionResult {
  return withWarnings(
    {
      allowed: false,
      status: { status: 'Failure', code: 403, reason: 'Forbidden', ...status, message },
    },
    warnings,
  );
}

/**
 * Denies the request because it could not be processed: `code` is an HTTP status (400 for a
 * request the handler cannot decode, 500 for a failure of the handler itself).
 */
export function admissionErrored(code: number, message: string): AdmissionResult {
  return {
    allowed: false,
    status: {
      status: 'Failure',
      code,
      reason: code >= 500 ? 'InternalError' : 'BadRequest',
      message,
    },
  };
}

/** One RFC 6902 operation, as produced by `fast-json-patch`'s `compare`. */
export interface JsonPatchOperation {
  op: 'add' | 'remove' | 'replace' | 'move' | 'copy' | 'test' | '_get';
  path: string;
  value?: unknown;
  from?: string;
}

/**
 * Allows the request and asks kube-apiserver to apply `operations` (RFC 6902) to the object.
 * An empty list gives a plain allow without `patch` and `patchType`.
 */
export function admissionPatched(
  operations: readonly JsonPatchOperation[],
  warnings?: readonly string[],
): AdmissionResult {
  if (operations.length === 0) return admissionAllowed(warnings);
  return withWarnings(
    {
      allowed: true,
      patchType: 'JSONPatch',
      patch: Buffer.from(JSON.stringify(operations), 'utf8').toString('base64'),
    },
    warnings,
  );
}

function withWarnings(
  result: AdmissionResult,
  warnings: readonly string[] | undefined,
): AdmissionResult {
  if (warnings !== undefined && warnings.length > 0) result.warnings = [...warnings];
  return result;
}

import { isJsonObject } from '@ops/api';
import {
  type AdmissionOperation,
  type AdmissionRequest,
  admissionOperations,
  admissionReviewApiVersion,
} from './admission-review.js';

/** The outcome of {@link parseAdmissionReview}. */
export type ParsedAdmissionReview =
  | { ok: true; request: AdmissionRequest }
  /** `uid` is set when the request's uid could be read, so the rejection can echo it. */
  | { ok: false; message: string; uid?: string };

/**
 * Checks that `body` (parsed JSON) is an `admission.k8s.io/v1` AdmissionReview with a
 * usable `request`: a non-empty `uid`, a known `operation`, and `kind` and `resource`
 * objects with string members. `userInfo` defaults to `{}`. Other fields are passed through
 * unchecked. Never throws: problems come back as `ok: false` with a message for the client.
 */
export function parseAdmissionReview(body: unknown): ParsedAdmissionReview {
  if (!isJsonObject(body)) {
    return {
      ok: false,
      message: `request body is not an AdmissionReview: expected a JSON object, got ${jsonType(body)}`,
    };
  }
  if (body.apiVersion === 'admission.k8s.io/v1beta1') {
    return {
      ok: false,
      message:
        'AdmissionReview admission.k8s.io/v1beta1 is not supported: set admissionReviewVersions: ["v1"] in the webhook configuration',
    };
  }
  if (body.apiVersion !== admissionReviewApiVersion || body.kind !== 'AdmissionReview') {
    return {
      ok: false,
      message: `request body is not an AdmissionReview: expected apiVersion ${admissionReviewApiVersion} and kind AdmissionReview, got apiVersion ${JSON.stringify(body.apiVersion)} and kind ${JSON.stringify(body.kind)}`,
    };
  }
  const request = body.request;
  if (!isJsonObject(request)) {
    return { ok: false, message: 'AdmissionReview has no request object' };
  }
  if (typeof request.uid !== 'string' || request.uid === '') {
    return { ok: false, message: 'AdmissionReview request.uid must be a non-empty string' };
  }
  const uid = request.uid;
  if (!admissionOperations.includes(request.operation as AdmissionOperation)) {
    return {
      ok: false,
      uid,
      message: `AdmissionReview request.operation must be one of ${admissionOperations.join(', ')}, got ${JSON.stringify(request.operation)}`,
    };
  }
  if (!hasStrings(request.kind, ['group', 'version', 'kind'])) {
    return {
      ok: false,
      uid,
      message: 'AdmissionReview request.kind must be an object with string group, version and kind',
    };
  }
  if (!hasStrings(request.resource, ['group', 'version', 'resource'])) {
    return {
      ok: false,
      uid,
      message:
        'AdmissionReview request.resource must be an object with string group, version and resource',
    };
  }
  if (request.userInfo !== undefined && !isJsonObject(request.userInfo)) {
    return { ok: false, uid, message: 'AdmissionReview request.userInfo must be an object' };
  }
  return {
    ok: true,
    request: { ...request, userInfo: request.userInfo ?? {} } as unknown as AdmissionRequest,
  };
}

function hasStrings(value: unknown, keys: readonly string[]): boolean {
  return isJsonObject(value) && keys.every((key) => typeof value[key] === 'string');
}

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  return Array.isArray(value) ? 'an array' : `a ${typeof value}`;
}

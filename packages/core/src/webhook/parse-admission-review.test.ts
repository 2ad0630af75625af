import { describe, expect, it } from 'vitest';
import { parseAdmissionReview } from './parse-admission-review.js';

const request = {
  uid: 'uid-1',
  kind: { group: '', version: 'v1', kind: 'Pod' },
  resource: { group: '', version: 'v1', resource: 'pods' },
  operation: 'CREATE',
  object: { apiVersion: 'v1', kind: 'Pod' },
};
const review = (fields: Record<string, unknown> = {}) => ({
  apiVersion: 'admission.k8s.io/v1',
  kind: 'AdmissionReview',
  request,
  ...fields,
});

describe('parseAdmissionReview', () => {
  it('accepts a v1 AdmissionReview and defaults userInfo', () => {
    expect(parseAdmissionReview(review())).toEqual({
      ok: true,
      request: { ...request, userInfo: {} },
    });
  });

  it.each([
    [[], 'request body is not an AdmissionReview: expected a JSON object, got an array'],
    [42, 'request body is not an AdmissionReview: expected a JSON object, got a number'],
    [
      { apiVersion: 'v1', kind: 'Pod' },
      'request body is not an AdmissionReview: expected apiVersion admission.k8s.io/v1 and kind AdmissionReview, got apiVersion "v1" and kind "Pod"',
    ],
    [
      review({ apiVersion: 'admission.k8s.io/v1beta1' }),
      'AdmissionReview admission.k8s.io/v1beta1 is not supported: set admissionReviewVersions: ["v1"] in the webhook configuration',
    ],
    [review({ request: undefined }), 'AdmissionReview has no request object'],
    [
      review({ request: { ...request, uid: '' } }),
      'AdmissionReview request.uid must be a non-empty string',
    ],
  ])('rejects %j', (body, message) => {
    expect(parseAdmissionReview(body)).toEqual({ ok: false, message });
  });

  it('echoes the uid when the rest of the request is wrong', () => {
    expect(parseAdmissionReview(review({ request: { ...request, operation: 'PATCH' } }))).toEqual({
      ok: false,
      uid: 'uid-1',
      message:
        'AdmissionReview request.operation must be one of CREATE, UPDATE, DELETE, CONNECT, got "PATCH"',
    });
    expect(parseAdmissionReview(review({ request: { ...request, kind: 'Pod' } }))).toMatchObject({
      ok: false,
      uid: 'uid-1',
    });
    expect(
      parseAdmissionReview(review({ request: { ...request, resource: undefined } })),
    ).toMatchObject({
      ok: false,
      uid: 'uid-1',
    });
    expect(parseAdmissionReview(review({ request: { ...request, userInfo: 'me' } }))).toMatchObject(
      {
        ok: false,
        message: 'AdmissionReview request.userInfo must be an object',
      },
    );
  });
});

import { describe, expect, it } from 'vitest';
import type { ResourceType } from '../registry/resource-type.js';
import {
  chooseReviewVersion,
  createAdmissionReview,
  verifyAdmissionResponse,
} from './admission-review.js';

const widgets: ResourceType = {
  group: 'example.com',
  version: 'v2',
  kind: 'Widget',
  plural: 'widgets',
  singular: 'widget',
  listKind: 'WidgetList',
  namespaced: true,
  shortNames: [],
  categories: [],
  verbs: [],
  subresources: { status: true, scale: false },
  selectableFields: [],
  printerColumns: [],
  custom: true,
  storageVersion: 'v1',
};

const review = (response: unknown, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'admission.k8s.io/v1',
  kind: 'AdmissionReview',
  response,
  ...extra,
});

function reason(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('expected an error');
}

describe('chooseReviewVersion', () => {
  it('takes the first known version', () => {
    expect(chooseReviewVersion(['v1beta1', 'v1'])).toBe('v1beta1');
    expect(chooseReviewVersion(['v3', 'v1'])).toBe('v1');
    expect(chooseReviewVersion(['v3'])).toBeUndefined();
  });
});

describe('createAdmissionReview', () => {
  it('sends the invocation version, the request version and the options', () => {
    const stored = {
      apiVersion: 'example.com/v1',
      kind: 'Widget',
      metadata: { name: 'w', namespace: 'ns' },
    };
    const body = createAdmissionReview('v1', {
      uid: 'u',
      attributes: {
        type: widgets,
        subresource: 'status',
        operation: 'UPDATE',
        namespace: 'ns',
        name: 'w',
        user: { name: 'jane', groups: [], uid: '42' },
        dryRun: true,
        options: { fieldManager: 'kubectl' },
      },
      version: 'v1',
      object: stored,
      old: stored,
    });
    expect(body).toEqual({
      apiVersion: 'admission.k8s.io/v1',
      kind: 'AdmissionReview',
      request: {
        uid: 'u',
        kind: { group: 'example.com', version: 'v1', kind: 'Widget' },
        resource: { group: 'example.com', version: 'v1', resource: 'widgets' },
        subResource: 'status',
        requestKind: { group: 'example.com', version: 'v2', kind: 'Widget' },
        requestResource: { group: 'example.com', version: 'v2', resource: 'widgets' },
        requestSubResource: 'status',
        name: 'w',
        namespace: 'ns',
        operation: 'UPDATE',
        userInfo: { username: 'jane', uid: '42' },
        object: stored,
        oldObject: stored,
        dryRun: true,
        options: {
          apiVersion: 'meta.k8s.io/v1',
          kind: 'UpdateOptions',
          fieldManager: 'kubectl',
          dryRun: ['All'],
        },
      },
    });
  });
});

describe('verifyAdmissionResponse', () => {
  it('accepts a valid v1 answer', () => {
    const patch = Buffer.from('[]').toString('base64');
    expect(
      verifyAdmissionResponse(
        'w',
        'v1',
        'u',
        true,
        review({ uid: 'u', allowed: true, patch, patchType: 'JSONPatch', warnings: ['careful'] }),
      ),
    ).toEqual({ allowed: true, patch, patchType: 'JSONPatch', warnings: ['careful'] });
  });

  it('refuses invalid v1 answers with kube-apiserver wording', () => {
    const prefix = 'failed calling webhook "w": received invalid webhook response: ';
    expect(reason(() => verifyAdmissionResponse('w', 'v1', 'u', false, {}))).toBe(
      `${prefix}webhook response was absent`,
    );
    expect(
      reason(() =>
        verifyAdmissionResponse('w', 'v1', 'u', false, review({ uid: 'x', allowed: true })),
      ),
    ).toBe(`${prefix}expected response.uid="u", got "x"`);
    expect(
      reason(() =>
        verifyAdmissionResponse(
          'w',
          'v1',
          'u',
          false,
          review({ uid: 'u', allowed: true }, { apiVersion: 'admission.k8s.io/v1beta1' }),
        ),
      ),
    ).toBe(
      `${prefix}expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, got admission.k8s.io/v1beta1, Kind=AdmissionReview`,
    );
    expect(
      reason(() =>
        verifyAdmissionResponse(
          'w',
          'v1',
          'u',
          true,
          review({ uid: 'u', allowed: true, patch: 'W10=' }),
        ),
      ),
    ).toBe(`${prefix}webhook returned response.patch but not response.patchType`);
    expect(
      reason(() =>
        verifyAdmissionResponse(
          'w',
          'v1',
          'u',
          true,
          review({ uid: 'u', allowed: true, patchType: 'JSONPatch' }),
        ),
      ),
    ).toBe(`${prefix}webhook returned response.patchType but not response.patch`);
    expect(
      reason(() =>
        verifyAdmissionResponse(
          'w',
          'v1',
          'u',
          false,
          review({ uid: 'u', allowed: true, patch: 'W10=' }),
        ),
      ),
    ).toBe(`${prefix}validating webhook may not return response.patch`);
  });

  it('checks only the presence of a v1beta1 response, taking a patch as a JSON patch', () => {
    expect(
      verifyAdmissionResponse('w', 'v1beta1', 'u', true, {
        response: { allowed: false, patch: 'W10=' },
      }),
    ).toEqual({
      allowed: false,
      patch: 'W10=',
      patchType: 'JSONPatch',
      warnings: [],
    });
  });
});

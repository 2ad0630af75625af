import { describe, expect, it } from 'vitest';
import {
  chooseConversionReviewVersion,
  convertedObjectsOf,
  createConversionReview,
  goGroupVersion,
  goGroupVersionKind,
} from './conversion-review.js';

const answer = (response: unknown, kind = 'ConversionReview') => ({
  apiVersion: 'apiextensions.k8s.io/v1',
  kind,
  response,
});

describe('chooseConversionReviewVersion', () => {
  it('takes the first version kube-apiserver speaks, in the CRD order', () => {
    expect(chooseConversionReviewVersion(['v2', 'v1beta1', 'v1'])).toBe('v1beta1');
    expect(chooseConversionReviewVersion(['v1', 'v1beta1'])).toBe('v1');
    expect(chooseConversionReviewVersion(['v2'])).toBeUndefined();
  });
});

describe('createConversionReview', () => {
  it('carries the objects, the desired apiVersion and the uid, with an empty response', () => {
    const object = { apiVersion: 'g.dev/v1beta1', kind: 'K', metadata: { name: 'a' } };
    expect(createConversionReview('v1', 'u-1', 'g.dev/v1', [object])).toEqual({
      kind: 'ConversionReview',
      apiVersion: 'apiextensions.k8s.io/v1',
      request: { uid: 'u-1', desiredAPIVersion: 'g.dev/v1', objects: [object] },
      response: { uid: '', convertedObjects: null, result: { metadata: {} } },
    });
  });
});

describe('goGroupVersionKind and goGroupVersion', () => {
  it('print as Go prints schema.GroupVersionKind and GroupVersion', () => {
    expect(goGroupVersionKind('g.dev/v1', 'Widget')).toBe('g.dev/v1, Kind=Widget');
    expect(goGroupVersionKind('v1', 'Pod')).toBe('/v1, Kind=Pod');
    expect(goGroupVersionKind(undefined, undefined)).toBe('/, Kind=');
    expect(goGroupVersion('g.dev/v1')).toBe('g.dev/v1');
    expect(goGroupVersion('v1')).toBe('v1');
  });
});

describe('convertedObjectsOf', () => {
  it('returns the converted objects of a successful v1 answer for the uid', () => {
    const objects = [{ kind: 'K' }];
    expect(
      convertedObjectsOf(
        'v1',
        'u',
        answer({ uid: 'u', result: { status: 'Success' }, convertedObjects: objects }),
      ),
    ).toEqual(objects);
  });

  it('rejects what kube-apiserver rejects, in its words', () => {
    expect(() => convertedObjectsOf('v1', 'u', answer({ uid: 'u' }, 'AdmissionReview'))).toThrow(
      'expected webhook response of apiextensions.k8s.io/v1, Kind=ConversionReview, got apiextensions.k8s.io/v1, Kind=AdmissionReview',
    );
    expect(() => convertedObjectsOf('v1', 'u', answer(undefined))).toThrow('no response provided');
    expect(() =>
      convertedObjectsOf('v1', 'u', answer({ uid: 'x', result: { status: 'Success' } })),
    ).toThrow('expected response.uid="u", got "x"');
    expect(() =>
      convertedObjectsOf(
        'v1',
        'u',
        answer({ uid: 'u', result: { status: 'Failure', message: 'no' } }),
      ),
    ).toThrow(/^no$/);
    expect(() => convertedObjectsOf('v1', 'u', answer({ uid: 'u', result: {} }))).toThrow(
      "response.result.status was '', not 'Success'",
    );
  });

  it('checks neither the kind nor the uid of a v1beta1 answer, as kube-apiserver', () => {
    expect(
      convertedObjectsOf('v1beta1', 'u', {
        response: { uid: 'other', result: { status: 'Success' }, convertedObjects: [] },
      }),
    ).toEqual([]);
  });
});

import type { ConversionRequest, KubernetesObject } from '@ops/api';
import { describe, expect, it } from 'vitest';
import { widget, widgetConversion } from '../crd/test-widget.js';
import { WebhookServerError } from '../errors/webhook-server-error.js';
import {
  ConversionWebhook,
  conversionFailure,
  parseConversionReview,
} from './conversion-webhook.js';

const object = (name: string, replicas: number): KubernetesObject =>
  ({
    apiVersion: 'example.com/v1',
    kind: 'Widget',
    metadata: { name, namespace: 'default' },
    spec: { scale: { replicas } },
  }) as KubernetesObject;

const request = (objects: KubernetesObject[], desiredAPIVersion = 'example.com/v1alpha1') =>
  ({ uid: 'uid-1', desiredAPIVersion, objects }) satisfies ConversionRequest;

describe('parseConversionReview', () => {
  const review = (fields: Record<string, unknown>) => ({
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'ConversionReview',
    request: { uid: 'uid-1', desiredAPIVersion: 'example.com/v1', objects: [], ...fields },
  });

  it('reads a v1 review', () => {
    expect(parseConversionReview(review({ objects: [object('a', 1)] }))).toEqual({
      ok: true,
      request: { uid: 'uid-1', desiredAPIVersion: 'example.com/v1', objects: [object('a', 1)] },
    });
  });

  it('says what is wrong with anything else, echoing the uid when there is one', () => {
    const cases: Array<[unknown, string, string]> = [
      [[], 'the body is not a JSON object', ''],
      [
        { apiVersion: 'apiextensions.k8s.io/v1beta1', kind: 'ConversionReview' },
        'expected apiVersion apiextensions.k8s.io/v1 and kind ConversionReview, got "apiextensions.k8s.io/v1beta1" and "ConversionReview" (list v1 in the CRD\'s conversionReviewVersions)',
        '',
      ],
      [
        { apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview' },
        'request is missing',
        '',
      ],
      [review({ uid: 7 }), 'request.uid is missing', ''],
      [
        review({ desiredAPIVersion: 'v1' }),
        'request.desiredAPIVersion must be a group/version string, got "v1"',
        'uid-1',
      ],
      [review({ objects: {} }), 'request.objects is not a list', 'uid-1'],
      [review({ objects: [object('a', 1), 'x'] }), 'request.objects[1] is not an object', 'uid-1'],
    ];
    for (const [json, message, uid] of cases) {
      expect(parseConversionReview(json)).toEqual({
        ok: false,
        message: `not a ConversionReview: ${message}`,
        uid,
      });
    }
  });
});

describe('ConversionWebhook', () => {
  const webhook = new ConversionWebhook([widgetConversion]);

  it('converts every object of the list, in order', () => {
    const response = webhook.review(request([object('a', 1), object('b', 2)]));
    expect(response.uid).toBe('uid-1');
    expect(response.result).toEqual({ status: 'Success' });
    expect(
      response.convertedObjects.map((o) => [
        o.apiVersion,
        o.metadata?.name,
        (o as { spec: unknown }).spec,
      ]),
    ).toEqual([
      ['example.com/v1alpha1', 'a', { replicas: 1 }],
      ['example.com/v1alpha1', 'b', { replicas: 2 }],
    ]);
    expect(webhook.customResourceDefinitions).toEqual([widget.name]);
  });

  it('fails the whole review at the first object it cannot convert, naming it and the reason', () => {
    const response = webhook.review(request([object('a', 1), object('big', 500)]));
    expect(response).toEqual({
      uid: 'uid-1',
      convertedObjects: [],
      result: {
        status: 'Failure',
        code: 422,
        message:
          'Widget default/big: converting example.com/v1 to example.com/v1alpha1 failed: spec.scale.replicas 500 does not fit v1alpha1 (at most 100): read it as example.com/v1',
      },
    });
  });

  it('fails for a kind it has no conversion for', () => {
    const gadget = { apiVersion: 'other.io/v1', kind: 'Gadget', metadata: { name: 'g' } };
    expect(webhook.review(request([gadget])).result).toEqual({
      status: 'Failure',
      code: 400,
      message:
        'Gadget g: no conversion is registered for kind "Gadget" of "other.io/v1" (this webhook converts widgets.example.com)',
    });
  });

  it('refuses a kind registered twice', () => {
    expect(() => new ConversionWebhook([widgetConversion, widgetConversion])).toThrow(
      WebhookServerError,
    );
    expect(() => new ConversionWebhook([widgetConversion]).add(widgetConversion)).toThrow(
      "the conversion of widgets.example.com is registered twice: register each kind's conversion once",
    );
  });

  it('answers a failed review in ConversionReview form', () => {
    expect(conversionFailure('u', 400, 'bad')).toEqual({
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'ConversionReview',
      response: {
        uid: 'u',
        convertedObjects: [],
        result: { status: 'Failure', code: 400, message: 'bad' },
      },
    });
  });
});

import { describe, expect, it } from 'vitest';
import { isConversionCrd, withCaBundle } from './webhook-ca-bundle.js';

const ca = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';
const bundle = Buffer.from(ca).toString('base64');
const crd = (conversion?: unknown) => ({
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'widgets.example.com' },
  spec: { group: 'example.com', ...(conversion === undefined ? {} : { conversion }) },
});
const service = { name: 'demo-webhook-service', namespace: 'demo-system', path: '/convert' };

describe('withCaBundle', () => {
  it('sets the CA on every admission webhook and on the conversion webhook of CRDs, leaving the rest', () => {
    const configuration = {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingWebhookConfiguration',
      metadata: { name: 'v' },
      webhooks: [{ name: 'a.example.com', clientConfig: { service } }],
    };
    const converting = crd({
      strategy: 'Webhook',
      webhook: { clientConfig: { service }, conversionReviewVersions: ['v1'] },
    });
    const plain = crd({ strategy: 'None' });
    const other = { apiVersion: 'v1', kind: 'Service', metadata: { name: 's' } };
    const [withConfiguration, withCrd, withPlain, withOther] = withCaBundle(
      [configuration, converting, plain, other],
      ca,
    );
    expect(withConfiguration?.webhooks[0].clientConfig).toEqual({ service, caBundle: bundle });
    expect(withCrd?.spec.conversion).toEqual({
      strategy: 'Webhook',
      webhook: { clientConfig: { service, caBundle: bundle }, conversionReviewVersions: ['v1'] },
    });
    expect(withPlain).toEqual(plain);
    expect(withOther).toEqual(other);
    // The inputs are not changed.
    expect(converting.spec.conversion).not.toHaveProperty('webhook.clientConfig.caBundle');
  });

  it('tells conversion CRDs from others', () => {
    expect(isConversionCrd(crd({ strategy: 'Webhook', webhook: {} }))).toBe(true);
    expect(isConversionCrd(crd({ strategy: 'None' }))).toBe(false);
    expect(isConversionCrd(crd())).toBe(false);
    expect(
      isConversionCrd({ kind: 'Service', spec: { conversion: { strategy: 'Webhook' } } }),
    ).toBe(false);
  });
});

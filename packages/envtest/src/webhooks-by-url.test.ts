import type { KubernetesObject } from '@ops/core';
import { describe, expect, it } from 'vitest';
import { webhooksByUrl } from './webhooks-by-url.js';

// As controller-gen / ops-manifests generate them (config/webhook/manifests.yaml), after
// kustomize: service references, no caBundle, a cert-manager annotation.
const generated = [
  {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'MutatingWebhookConfiguration',
    metadata: {
      name: 'demo-mutating-webhook-configuration',
      annotations: { 'cert-manager.io/inject-ca-from': 'demo-system/demo-serving-cert' },
    },
    webhooks: [
      {
        name: 'mwidget.example.com',
        admissionReviewVersions: ['v1'],
        clientConfig: {
          service: {
            name: 'demo-webhook-service',
            namespace: 'demo-system',
            path: '/mutate-example-com-v1-widget',
          },
        },
        failurePolicy: 'Fail',
        sideEffects: 'None',
        rules: [
          {
            apiGroups: ['example.com'],
            apiVersions: ['v1'],
            operations: ['CREATE', 'UPDATE'],
            resources: ['widgets'],
          },
        ],
      },
    ],
  },
  {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingWebhookConfiguration',
    metadata: { name: 'demo-validating-webhook-configuration' },
    webhooks: [
      {
        name: 'vwidget.example.com',
        admissionReviewVersions: ['v1'],
        clientConfig: {
          service: { name: 'demo-webhook-service', namespace: 'demo-system', port: 443 },
          caBundle: 'b2xk',
        },
        sideEffects: 'None',
      },
    ],
  },
  { apiVersion: 'v1', kind: 'Service', metadata: { name: 'demo-webhook-service' } },
] as KubernetesObject[];

const caCert = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n';

describe('webhooksByUrl', () => {
  it('points every service reference at the loopback address with the CA bundle, and changes nothing else', () => {
    const [mutating, validating, ...rest] = webhooksByUrl(generated, { port: 40123, caCert });
    expect(rest).toEqual([]);
    const expected = structuredClone(generated[0]) as any;
    expected.webhooks[0].clientConfig = {
      url: 'https://127.0.0.1:40123/mutate-example-com-v1-widget',
      caBundle: Buffer.from(caCert).toString('base64'),
    };
    expect(mutating).toEqual(expected);
    // No path in the service reference: the server's root, as kube-apiserver calls it.
    expect((validating as any).webhooks[0].clientConfig).toEqual({
      url: 'https://127.0.0.1:40123/',
      caBundle: Buffer.from(caCert).toString('base64'),
    });
  });

  it('keeps a caBundle already there when no CA is given (the operator injects its own)', () => {
    const [, validating] = webhooksByUrl(generated, { port: 9443, host: 'localhost' });
    expect((validating as any).webhooks[0].clientConfig).toEqual({
      url: 'https://localhost:9443/',
      caBundle: 'b2xk',
    });
  });

  it('brackets an IPv6 host and leaves the input as it was', () => {
    const before = structuredClone(generated);
    const [mutating] = webhooksByUrl(generated, { port: 9443, host: '::1', caCert });
    expect((mutating as any).webhooks[0].clientConfig.url).toBe(
      'https://[::1]:9443/mutate-example-com-v1-widget',
    );
    expect(generated).toEqual(before);
  });

  it('refuses what cannot be a webhook URL, saying what to pass', () => {
    expect(() => webhooksByUrl(generated, { port: 0 })).toThrow(
      'webhook port 0 is not a TCP port: pass the port the webhook server listens on (after starting it)',
    );
    expect(() => webhooksByUrl(generated, { port: 9443, host: 'https://127.0.0.1' })).toThrow(
      'webhook host "https://127.0.0.1" is not a host name or IP address: pass only the host (default 127.0.0.1), the port separately',
    );
    expect(() => webhooksByUrl([generated[2] as KubernetesObject], { port: 9443 })).toThrow(
      'no MutatingWebhookConfiguration, ValidatingWebhookConfiguration or CustomResourceDefinition with a conversion webhook among the 1 objects given: pass the generated webhook manifests (config/webhook/manifests.yaml), the CRDs or the rendered install',
    );
    const broken = structuredClone(generated[1]) as any;
    broken.webhooks[0].clientConfig = {};
    expect(() => webhooksByUrl([broken], { port: 9443 })).toThrow(
      'webhook vwidget.example.com of ValidatingWebhookConfiguration demo-validating-webhook-configuration has neither clientConfig.service nor clientConfig.url',
    );
  });

  it('points the conversion webhook of a CRD at the test process, leaving CRDs without one out', () => {
    const crd = (name: string, conversion?: unknown) =>
      ({
        apiVersion: 'apiextensions.k8s.io/v1',
        kind: 'CustomResourceDefinition',
        metadata: { name },
        spec: { group: 'example.com', ...(conversion === undefined ? {} : { conversion }) },
      }) as KubernetesObject;
    const converting = crd('widgets.example.com', {
      strategy: 'Webhook',
      webhook: {
        clientConfig: {
          service: { name: 'demo-webhook-service', namespace: 'demo-system', path: '/convert' },
        },
        conversionReviewVersions: ['v1'],
      },
    });
    const plain = crd('gadgets.example.com', { strategy: 'None' });
    expect(
      webhooksByUrl([plain, converting, crd('dials.example.com')], { port: 9443, caCert }),
    ).toEqual([
      crd('widgets.example.com', {
        strategy: 'Webhook',
        webhook: {
          clientConfig: {
            url: 'https://127.0.0.1:9443/convert',
            caBundle: Buffer.from(caCert).toString('base64'),
          },
          conversionReviewVersions: ['v1'],
        },
      }),
    ]);
    expect(() =>
      webhooksByUrl([crd('broken.example.com', { strategy: 'Webhook', webhook: {} })], {
        port: 9443,
      }),
    ).toThrow(
      'the conversion webhook of CustomResourceDefinition broken.example.com has neither clientConfig.service nor clientConfig.url',
    );
  });
});

// env.installWebhooks: generated webhook configurations (service references) pointed at a
// webhook server in this process by URL, as controller-runtime's envtest does; on the
// binaries plane kube-apiserver itself calls it, over TLS on the loopback address.
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { createServingCertificates } from '@ops/apiserver';
import type { KubernetesObject } from '@ops/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../src/index.js';
import { startCluster, type TestCluster } from '../cluster.js';

let cluster: TestCluster;
let server: Server;
let port: number;
let caCert: string;
/** The path and peer address of every call the webhook server received. */
const calls: Array<{ path: string; from: string }> = [];

// ConfigMaps labelled `webhook-test` only, so nothing the control plane writes is held up.
const rules = [
  { apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] },
];
const objectSelector = { matchExpressions: [{ key: 'webhook-test', operator: 'Exists' }] };
const generated = [
  {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'MutatingWebhookConfiguration',
    metadata: { name: 'demo-mutating-webhook-configuration' },
    webhooks: [
      {
        name: 'mconfigmap.example.com',
        admissionReviewVersions: ['v1'],
        clientConfig: {
          service: { name: 'demo-webhook-service', namespace: 'demo-system', path: '/mutate' },
        },
        failurePolicy: 'Fail',
        sideEffects: 'None',
        objectSelector,
        rules,
      },
    ],
  },
  {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingWebhookConfiguration',
    metadata: { name: 'demo-validating-webhook-configuration' },
    webhooks: [
      {
        name: 'vconfigmap.example.com',
        admissionReviewVersions: ['v1'],
        clientConfig: {
          service: { name: 'demo-webhook-service', namespace: 'demo-system', path: '/validate' },
        },
        failurePolicy: 'Fail',
        sideEffects: 'None',
        objectSelector,
        rules,
      },
    ],
  },
] as KubernetesObject[];

beforeAll(async () => {
  cluster = await startCluster();
  const certificates = await createServingCertificates(['127.0.0.1']);
  caCert = certificates.caCert;
  server = createServer({ cert: certificates.cert, key: certificates.key }, (request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = new URL(request.url ?? '/', 'https://webhook').pathname;
      calls.push({ path, from: request.socket.remoteAddress ?? '' });
      const review = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      const object = review.request.object;
      const answer =
        path === '/mutate'
          ? {
              uid: review.request.uid,
              allowed: true,
              patchType: 'JSONPatch',
              patch: Buffer.from(
                JSON.stringify([
                  { op: 'add', path: '/metadata/labels/mutated', value: 'by-webhook' },
                ]),
              ).toString('base64'),
            }
          : object.data?.verdict === 'deny'
            ? {
                uid: review.request.uid,
                allowed: false,
                status: { code: 403, message: 'verdict is deny' },
              }
            : { uid: review.request.uid, allowed: true };
      response.setHeader('Content-Type', 'application/json');
      response.end(
        JSON.stringify({ apiVersion: review.apiVersion, kind: review.kind, response: answer }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  await cluster?.stop();
});

const configMap = (name: string, data: Record<string, string>) =>
  cluster.request('POST', '/api/v1/namespaces/default/configmaps', {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, labels: { 'webhook-test': 'true' } },
    data,
  });

describe('webhooks by URL', () => {
  it('stores the configurations with the URL and CA bundle, the rest as generated', async () => {
    const installed = await cluster.env.installWebhooks(generated, { port, caCert });
    expect(installed.map((object) => object.kind)).toEqual([
      'MutatingWebhookConfiguration',
      'ValidatingWebhookConfiguration',
    ]);
    const stored = await cluster.request(
      'GET',
      '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations/demo-validating-webhook-configuration',
    );
    expect(stored.body.webhooks[0].clientConfig).toEqual({
      url: `https://127.0.0.1:${port}/validate`,
      caBundle: Buffer.from(caCert).toString('base64'),
    });
    expect(stored.body.webhooks[0].objectSelector).toEqual(objectSelector);
    expect(stored.body.webhooks[0].failurePolicy).toBe('Fail');
  });

  it('has the API server call them over TLS on the loopback address', async () => {
    // The API server watches webhook configurations: the first call comes a moment later.
    const denied = await eventually(async () => {
      const response = await configMap('denied', { verdict: 'deny' });
      return response.status === 403 && response;
    });
    expect(denied.body.message).toBe(
      'admission webhook "vconfigmap.example.com" denied the request: verdict is deny',
    );
    const allowed = await configMap('allowed', { verdict: 'allow' });
    expect(allowed.status).toBe(201);
    expect(allowed.body.metadata.labels).toEqual({ 'webhook-test': 'true', mutated: 'by-webhook' });
    expect(calls.map((call) => call.path)).toEqual(
      expect.arrayContaining(['/mutate', '/validate']),
    );
    expect(new Set(calls.map((call) => call.from))).toEqual(new Set(['127.0.0.1']));
  });

  it('replaces configurations installed before (a second run, a new port)', async () => {
    await cluster.env.installWebhooks(generated, { port: port + 1, caCert });
    const stored = await cluster.request(
      'GET',
      '/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations/demo-mutating-webhook-configuration',
    );
    expect(stored.body.webhooks[0].clientConfig.url).toBe(`https://127.0.0.1:${port + 1}/mutate`);
  });
});

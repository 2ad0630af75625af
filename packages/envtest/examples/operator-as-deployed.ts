import assert from 'node:assert/strict';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { createServingCertificates } from '@ops/apiserver';
import type { KubernetesObject } from '@ops/core';
import { Environment, eventually, kubeRequest } from '@ops/envtest';

// What `kubectl kustomize config/default` renders, inline here: in a suite, parse its output.
const rendered = [
  {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRole',
    metadata: { name: 'demo-manager-role' },
    rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['list', 'watch'] }],
  },
  {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'ClusterRoleBinding',
    metadata: { name: 'demo-manager-rolebinding' },
    roleRef: {
      apiGroup: 'rbac.authorization.k8s.io',
      kind: 'ClusterRole',
      name: 'demo-manager-role',
    },
    subjects: [
      { kind: 'ServiceAccount', name: 'demo-controller-manager', namespace: 'demo-system' },
    ],
  },
  {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingWebhookConfiguration',
    metadata: { name: 'demo-validating-webhook-configuration' },
    webhooks: [
      {
        name: 'vconfigmap.demo.example.com',
        admissionReviewVersions: ['v1'],
        sideEffects: 'None',
        clientConfig: {
          service: { name: 'demo-webhook-service', namespace: 'demo-system', path: '/validate' },
        },
        objectSelector: { matchLabels: { demo: 'true' } },
        rules: [
          {
            apiGroups: [''],
            apiVersions: ['v1'],
            operations: ['CREATE'],
            resources: ['configmaps'],
          },
        ],
      },
    ],
  },
] as KubernetesObject[];

const env = await Environment.start({ apiServer: { rbac: true } });
// The operator's webhook server, in this process, with a certificate for 127.0.0.1.
const certificates = await createServingCertificates(['127.0.0.1']);
const webhookServer = createServer(certificates, (request, response) => {
  let body = '';
  request.on('data', (chunk) => {
    body += chunk;
  });
  request.on('end', () => {
    const { request: review } = JSON.parse(body);
    const answer = { uid: review.uid, allowed: false, status: { message: 'not today' } };
    response.setHeader('Content-Type', 'application/json');
    response.end(
      JSON.stringify({
        apiVersion: 'admission.k8s.io/v1',
        kind: 'AdmissionReview',
        response: answer,
      }),
    );
  });
});
await new Promise<void>((resolve) => webhookServer.listen(0, '127.0.0.1', resolve));
try {
  // The operator's identity: its ServiceAccount, bound by the rendered RBAC, with a token
  // (TokenRequest on kube-apiserver). operator.kubeConfig is for a Manager or Client,
  // operator.kubeconfigPath for an operator's --kubeconfig.
  const operator = await env.serviceAccount({
    namespace: 'demo-system',
    name: 'demo-controller-manager',
    rbac: rendered,
  });
  const listed = await kubeRequest(operator.kubeConfig, 'GET', '/api/v1/configmaps');
  assert.equal(listed.status, 200);
  const secrets = await kubeRequest(operator.kubeConfig, 'GET', '/api/v1/secrets');
  assert.equal(secrets.status, 403);

  // The generated webhook configurations, pointed at this process by URL.
  const { port } = webhookServer.address() as AddressInfo;
  await env.installWebhooks(rendered, { port, caCert: certificates.caCert });
  await eventually(async () => {
    const denied = await kubeRequest(
      env.kubeConfig,
      'POST',
      '/api/v1/namespaces/default/configmaps',
      {
        metadata: { name: 'demo', labels: { demo: 'true' } },
      },
    );
    assert.equal(
      (denied.body as { message?: string }).message,
      'admission webhook "vconfigmap.demo.example.com" denied the request: not today',
    );
  });
} finally {
  webhookServer.close();
  await env.stop();
}

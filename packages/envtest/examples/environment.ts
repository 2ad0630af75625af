import assert from 'node:assert/strict';
import { Environment, eventually, kubeRequest } from '@ops/envtest';

// The local API server in-process; with KUBEBUILDER_ASSETS set, real etcd + kube-apiserver.
const env = await Environment.start({
  crds: [
    {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'widgets.example.com' },
      spec: {
        group: 'example.com',
        scope: 'Namespaced',
        names: { plural: 'widgets', singular: 'widget', kind: 'Widget' },
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            schema: {
              openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
            },
          },
        ],
      },
    },
  ],
});
try {
  // env.kubeConfig is a client-node KubeConfig; env.kubeconfigPath a file for kubectl.
  const created = await kubeRequest(
    env.kubeConfig,
    'POST',
    '/apis/example.com/v1/namespaces/default/widgets',
    {
      metadata: { name: 'first' },
    },
  );
  assert.equal(created.status, 201);
  await eventually(async () => {
    const got = await kubeRequest(
      env.kubeConfig,
      'GET',
      '/apis/example.com/v1/namespaces/default/widgets/first',
    );
    assert.equal(got.status, 200);
  });
} finally {
  await env.stop();
}

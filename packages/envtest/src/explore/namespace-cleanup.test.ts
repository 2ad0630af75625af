import { afterAll, beforeAll, expect, it } from 'vitest';
import { applyObjects } from '../apply-objects.js';
import { Environment } from '../environment.js';
import { kubeRequest } from '../kube-request.js';
import { namespacedResources, removeNamespace } from './namespace-cleanup.js';

let env: Environment;
beforeAll(async () => {
  env = await Environment.start({ controlPlane: 'local' });
});
afterAll(async () => {
  await env.stop();
});

it('discovers the namespaced resources that can be listed and deleted, and no subresource', async () => {
  const resources = await namespacedResources(env.kubeConfig);
  const names = resources.map(({ groupVersionPath, plural }) => `${groupVersionPath} ${plural}`);
  expect(names).toContain('/api/v1 configmaps');
  expect(names).toContain('/apis/coordination.k8s.io/v1 leases');
  // Subresources (configmaps have none, pods/status, widgets/status) are no list of their own.
  expect(resources.filter(({ plural }) => plural.includes('/'))).toEqual([]);
  expect(names.some((name) => name.endsWith(' namespaces'))).toBe(false);
});

it('removes a namespace whose objects hold finalizers nobody will remove, and waits until it is gone', async () => {
  await applyObjects(env.kubeConfig, [
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'leftover' } },
    {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        name: 'held',
        namespace: 'leftover',
        finalizers: ['example.com/stopped-operator'],
      },
    },
  ]);
  await removeNamespace(
    env.kubeConfig,
    'leftover',
    await namespacedResources(env.kubeConfig),
    20_000,
  );
  expect((await kubeRequest(env.kubeConfig, 'GET', '/api/v1/namespaces/leftover')).status).toBe(
    404,
  );
  expect(
    (await kubeRequest(env.kubeConfig, 'GET', '/api/v1/namespaces/leftover/configmaps/held'))
      .status,
  ).toBe(404);
  // Removing a namespace that is gone is no error.
  await removeNamespace(env.kubeConfig, 'leftover', [], 1_000);
});

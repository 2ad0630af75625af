import assert from 'node:assert/strict';
import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { ApiServer } from '@ops/apiserver';

// An HTTPS API server on a free port, with `default` and `kube-system` namespaces.
const server = await ApiServer.start();
try {
  // Any client that reads a kubeconfig works against it.
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromString(server.kubeconfig());
  const core = kubeConfig.makeApiClient(CoreV1Api);

  await core.createNamespacedConfigMap({
    namespace: 'default',
    body: { metadata: { name: 'settings', labels: { app: 'demo' } }, data: { color: 'blue' } },
  });
  const list = await core.listNamespacedConfigMap({
    namespace: 'default',
    labelSelector: 'app=demo',
  });
  assert.deepEqual(
    list.items.map((item) => item.metadata?.name),
    ['settings'],
  );

  // Faults, for reliability tests: drop every watch, or fail the next create with a 409.
  server.dropWatches();
  server.injectFault({ verb: 'create', resource: 'configmaps', code: 409, count: 1 });
  await assert.rejects(
    core.createNamespacedConfigMap({ namespace: 'default', body: { metadata: { name: 'x' } } }),
  );
} finally {
  await server.stop();
}

import {
  ApiException,
  AppsV1Api,
  CoreV1Api,
  CustomObjectsApi,
  makeInformer,
  type V1ConfigMap,
  Watch,
} from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../src/index.js';
import { startCluster, type TestCluster } from '../cluster.js';
import { applicationCrd } from './application-crd.js';

// The same server behaviours, through @kubernetes/client-node's own typed APIs, Watch and
// informer: what operators built on client-node rely on.
let cluster: TestCluster;
let core: CoreV1Api;
beforeAll(async () => {
  cluster = await startCluster({ crds: [applicationCrd] });
  core = cluster.kubeConfig.makeApiClient(CoreV1Api);
  await core.createNamespace({ body: { metadata: { name: 'client-node' } } });
});
afterAll(async () => {
  await cluster.stop();
});

const namespace = 'client-node';

describe('@kubernetes/client-node against the server', () => {
  it('creates, reads, replaces and deletes with typed APIs', async () => {
    const created = await core.createNamespacedConfigMap({
      namespace,
      body: { metadata: { name: 'typed', labels: { app: 'x' } }, data: { a: '1' } },
    });
    expect(created.metadata?.uid).toBeTruthy();
    const read = await core.readNamespacedConfigMap({ name: 'typed', namespace });
    expect(read.data).toEqual({ a: '1' });
    const replaced = await core.replaceNamespacedConfigMap({
      name: 'typed',
      namespace,
      body: { ...read, data: { a: '2' } },
    });
    expect(replaced.data?.a).toBe('2');
    const listed = await core.listNamespacedConfigMap({ namespace, labelSelector: 'app=x' });
    expect(listed.items.map((item) => item.metadata?.name)).toEqual(['typed']);
    await core.deleteNamespacedConfigMap({ name: 'typed', namespace });
    await expect(core.readNamespacedConfigMap({ name: 'typed', namespace })).rejects.toMatchObject({
      code: 404,
    });
  });

  it('surfaces 409 Conflict on a stale write as an ApiException with the Status body', async () => {
    const created = await core.createNamespacedConfigMap({
      namespace,
      body: { metadata: { name: 'stale' } },
    });
    await core.replaceNamespacedConfigMap({
      name: 'stale',
      namespace,
      body: { ...created, data: { b: '1' } },
    });
    try {
      await core.replaceNamespacedConfigMap({
        name: 'stale',
        namespace,
        body: { ...created, data: { b: '2' } },
      });
      expect.unreachable('a stale resourceVersion must conflict');
    } catch (error) {
      expect(error).toBeInstanceOf(ApiException);
      const failure = error as ApiException<string>;
      expect(failure.code).toBe(409);
      expect(JSON.parse(failure.body)).toMatchObject({ kind: 'Status', reason: 'Conflict' });
    }
  });

  it('delivers events to Watch and keeps an informer in sync', async () => {
    const events: string[] = [];
    const watch = new Watch(cluster.kubeConfig);
    const request = await watch.watch(
      `/api/v1/namespaces/${namespace}/configmaps`,
      {},
      (type, object: V1ConfigMap) => {
        events.push(`${type} ${object.metadata?.name}`);
      },
      () => undefined,
    );
    const informer = makeInformer(
      cluster.kubeConfig,
      `/api/v1/namespaces/${namespace}/configmaps`,
      () => core.listNamespacedConfigMap({ namespace }),
    );
    await informer.start();
    await core.createNamespacedConfigMap({ namespace, body: { metadata: { name: 'watched' } } });
    await core.deleteNamespacedConfigMap({ name: 'watched', namespace });
    await eventually(() => events.includes('ADDED watched') && events.includes('DELETED watched'));
    await core.createNamespacedConfigMap({ namespace, body: { metadata: { name: 'cached' } } });
    await eventually(() =>
      informer.list(namespace).some((item) => item.metadata?.name === 'cached'),
    );
    await informer.stop();
    request.abort();
  });

  it('serves custom resources through CustomObjectsApi and deployments through AppsV1Api', async () => {
    const custom = cluster.kubeConfig.makeApiClient(CustomObjectsApi);
    await custom.createNamespacedCustomObject({
      group: 'core.crd.lixueduan.com',
      version: 'v1',
      namespace,
      plural: 'applications',
      body: {
        apiVersion: 'core.crd.lixueduan.com/v1',
        kind: 'Application',
        metadata: { name: 'typed-app' },
        spec: { image: 'nginx:1.22' },
      },
    });
    const got = (await custom.getNamespacedCustomObject({
      group: 'core.crd.lixueduan.com',
      version: 'v1',
      namespace,
      plural: 'applications',
      name: 'typed-app',
    })) as { spec: { enabled: boolean } };
    expect(got.spec.enabled).toBe(true);
    const apps = cluster.kubeConfig.makeApiClient(AppsV1Api);
    const deployment = await apps.createNamespacedDeployment({
      namespace,
      body: {
        metadata: { name: 'web' },
        spec: {
          selector: { matchLabels: { app: 'web' } },
          template: {
            metadata: { labels: { app: 'web' } },
            spec: { containers: [{ name: 'web', image: 'nginx' }] },
          },
        },
      },
    });
    expect(deployment.spec?.replicas).toBe(1);
    await expect(
      apps.createNamespacedDeployment({
        namespace,
        body: {
          metadata: { name: 'no-selector' },
          spec: { selector: {}, template: { spec: { containers: [] } } },
        },
      }),
    ).rejects.toMatchObject({ code: 422 });
  });
});

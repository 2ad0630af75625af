import {
  Client,
  type ConfigMap,
  configMaps,
  type Deployment,
  deployments,
  namespaces,
} from '@ops/core';
import {
  builtInKinds,
  DiscoveryRestMapper,
  KubeTransport,
  NoKindMatchError,
  type ResourceDescriptor,
} from '@ops/core/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveControlPlane } from '../../src/index.js';
import { startCluster, type TestCluster } from '../cluster.js';

// @ops/core's built-in kinds (`deployments`, `pods`, ...) against the server's discovery:
// each descriptor's group, version, kind, plural and scope are what the server serves. On the
// real kube-apiserver (pnpm test:binaries) every kind is served; the local API server serves
// fewer kinds, and the ones it does not serve are listed below.

/** The built-in kinds of @ops/core that the local API server does not serve. */
const notServedLocally = [
  'PersistentVolumeClaim',
  'PersistentVolume',
  'CronJob',
  'Ingress',
  'IngressClass',
  'NetworkPolicy',
  'HorizontalPodAutoscaler',
  'PodDisruptionBudget',
  'StorageClass',
];

let cluster: TestCluster;
let transport: KubeTransport;
let client: Client;
beforeAll(async () => {
  cluster = await startCluster({ apiServer: { cluster: false } });
  transport = new KubeTransport(cluster.kubeConfig);
  client = new Client({ kubeConfig: cluster.kubeConfig });
});
afterAll(async () => {
  client?.close();
  await cluster?.stop();
});

describe("@ops/core's built-in kinds", () => {
  it('are served as their descriptors say', async () => {
    const local = resolveControlPlane() === 'local';
    const mapper = new DiscoveryRestMapper(transport);
    const missing: string[] = [];
    for (const kind of builtInKinds) {
      let served: ResourceDescriptor;
      try {
        served = await mapper.resourceFor(kind.apiVersion, kind.kind);
      } catch (error) {
        if (!NoKindMatchError.isInstance(error)) throw error;
        missing.push(kind.kind);
        continue;
      }
      expect(served, `${kind.kind} (${kind.apiVersion})`).toEqual(kind.descriptor);
    }
    expect(missing).toEqual(local ? notServedLocally : []);
  });

  it('read and write through the client as their types', async () => {
    const namespace = 'built-in-kinds';
    await client.create({
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: namespace },
    });
    expect((await client.get(namespaces, namespace)).metadata.name).toBe(namespace);

    const settings: ConfigMap = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'settings', namespace },
      data: { mode: 'fast' },
    };
    await client.create(settings);
    const read = await client.get(configMaps, 'settings', namespace);
    expect(read.data).toEqual({ mode: 'fast' });
    expect(read.metadata.creationTimestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);

    const web: Deployment = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace, labels: { app: 'web' } },
      spec: {
        replicas: 2,
        selector: { matchLabels: { app: 'web' } },
        template: {
          metadata: { labels: { app: 'web' } },
          spec: {
            containers: [{ name: 'web', image: 'nginx:1.27', ports: [{ containerPort: 80 }] }],
          },
        },
      },
    };
    const created = await client.create(web);
    expect(created.metadata.uid).toBeTruthy();
    const listed = await client.list(deployments, { namespace, labelSelector: 'app=web' });
    expect(listed.items.map((item) => [item.kind, item.apiVersion, item.spec?.replicas])).toEqual([
      ['Deployment', 'apps/v1', 2],
    ]);
    expect(listed.items[0]?.spec?.template.spec?.containers[0]?.image).toBe('nginx:1.27');
  });
});

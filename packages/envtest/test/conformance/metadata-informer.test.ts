import { Client, isNotFound, type KubernetesObject, Manager } from '@ops/core';
import { KubeTransport } from '@ops/core/client';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../src/eventually.js';
import { startCluster, type TestCluster } from '../cluster.js';

/**
 * Metadata-only watches (issue #31) on both planes: a controller owns Secrets with
 * `onlyMetadata`, so the manager caches their PartialObjectMetadata only (no data), and their
 * changes still reconcile the owner. And metadata reads through the client (`getMetadata`,
 * `listMetadata`): from the API server as PartialObjectMetadata, or from the metadata cache.
 * The metadata watches resume after the API server restarts (its process, on the real plane).
 */
let cluster: TestCluster;
beforeAll(async () => {
  cluster = await startCluster();
  await cluster.request('POST', '/api/v1/namespaces', { metadata: { name: 'meta' } });
}, 120_000);
afterAll(async () => {
  await cluster?.stop();
});

/** A manager over namespace `meta` that logs nothing and serves no ports. */
function quietManager(onRequest?: (verb: string, resource: string) => void): Manager {
  return new Manager({
    kubeConfig: cluster.kubeConfig,
    logger: pino({ level: 'silent' }),
    metricsBindAddress: false,
    healthProbeBindAddress: false,
    namespace: 'meta',
    ...(onRequest ? { onRequest } : {}),
  });
}

describe('metadata-only informers through the manager', () => {
  it('owns Secrets by metadata: the owner is reconciled, the cache holds no Secret data', async () => {
    const owner = await cluster.request('POST', '/api/v1/namespaces/meta/configmaps', {
      metadata: { name: 'owner' },
    });
    const manager = quietManager();
    const reconciled: string[] = [];
    const seenByPredicate: KubernetesObject[] = [];
    manager
      .controller('owner')
      .for({ apiVersion: 'v1', kind: 'ConfigMap' })
      .owns(
        { apiVersion: 'v1', kind: 'Secret' },
        {
          onlyMetadata: true,
          predicates: [
            (event) => {
              seenByPredicate.push(event.object);
              return true;
            },
          ],
        },
      )
      .complete(async (request) => {
        reconciled.push(request.name);
        return {};
      });
    const stop = new AbortController();
    const running = manager.start(stop.signal);
    try {
      await eventually(() => manager.isLeader(), {
        timeoutMs: 60_000,
        description: 'the manager runs its controllers',
      });
      const before = reconciled.length;
      await cluster.request('POST', '/api/v1/namespaces/meta/secrets', {
        metadata: {
          name: 'owned',
          labels: { app: 'demo' },
          ownerReferences: [
            {
              apiVersion: 'v1',
              kind: 'ConfigMap',
              name: 'owner',
              uid: owner.body.metadata.uid,
              controller: true,
            },
          ],
        },
        stringData: { password: 'secret-value' },
      });
      await eventually(() => reconciled.slice(before).includes('owner'), {
        timeoutMs: 30_000,
        description: 'the owned Secret reconciles its owner',
      });
      const cached = manager.cache.getMetadata('v1', 'Secret', 'meta', 'owned');
      expect(cached?.apiVersion).toBe('v1');
      expect(cached?.kind).toBe('Secret');
      expect(cached?.metadata.labels).toEqual({ app: 'demo' });
      expect(Object.keys(cached ?? {}).sort()).toEqual(['apiVersion', 'kind', 'metadata']);
      expect(seenByPredicate.every((object) => object.data === undefined)).toBe(true);
      // Whole Secrets are not cached: reads of them go to the API server.
      expect(manager.cache.has('v1', 'Secret')).toBe(false);
    } finally {
      stop.abort();
      await running;
    }
  }, 120_000);
});

describe('metadata-only informers through an API server restart', () => {
  it('resume after the restart: a Secret changed and one created after it reconcile the owner, the cache follows', async () => {
    const owner = await cluster.request('POST', '/api/v1/namespaces/meta/configmaps', {
      metadata: { name: 'restart-owner' },
    });
    const ownedBy = [
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        name: 'restart-owner',
        uid: owner.body.metadata.uid,
        controller: true,
      },
    ];
    const manager = quietManager();
    const reconciled: string[] = [];
    manager
      .controller('restart-owner')
      .for({ apiVersion: 'v1', kind: 'ConfigMap' })
      .owns({ apiVersion: 'v1', kind: 'Secret' }, { onlyMetadata: true })
      .complete(async (request) => {
        reconciled.push(request.name);
        return {};
      });
    const stop = new AbortController();
    const running = manager.start(stop.signal);
    try {
      await cluster.request('POST', '/api/v1/namespaces/meta/secrets', {
        metadata: { name: 'kept', labels: { round: 'one' }, ownerReferences: ownedBy },
        stringData: { password: 'secret-value' },
      });
      await eventually(
        () =>
          manager.cache.getMetadata('v1', 'Secret', 'meta', 'kept')?.metadata.labels?.round ===
          'one',
        { timeoutMs: 60_000, description: 'the Secret is in the metadata cache' },
      );

      await cluster.env.restartApiServer({ downtimeMs: 500 });

      const before = reconciled.length;
      const patched = await cluster.request(
        'PATCH',
        '/api/v1/namespaces/meta/secrets/kept',
        { metadata: { labels: { round: 'two' } } },
        { contentType: 'application/merge-patch+json' },
      );
      expect(patched.status).toBe(200);
      await cluster.request('POST', '/api/v1/namespaces/meta/secrets', {
        metadata: { name: 'after-restart', ownerReferences: ownedBy },
        stringData: { password: 'secret-value' },
      });
      await eventually(
        () =>
          manager.cache.getMetadata('v1', 'Secret', 'meta', 'kept')?.metadata.labels?.round ===
            'two' &&
          manager.cache.getMetadata('v1', 'Secret', 'meta', 'after-restart') !== undefined,
        {
          timeoutMs: 60_000,
          description: 'the metadata cache has the change and the new Secret after the restart',
        },
      );
      await eventually(() => reconciled.slice(before).includes('restart-owner'), {
        timeoutMs: 30_000,
        description: 'a Secret changed after the restart reconciles its owner',
      });
      const cached = manager.cache.getMetadata('v1', 'Secret', 'meta', 'after-restart');
      expect(Object.keys(cached ?? {}).sort()).toEqual(['apiVersion', 'kind', 'metadata']);
    } finally {
      stop.abort();
      await running;
    }
  }, 180_000);
});

/** A transport that notes the Accept header of every request. */
class RecordingTransport extends KubeTransport {
  readonly accepts: Array<string | undefined> = [];

  override request(request: Parameters<KubeTransport['request']>[0]) {
    this.accepts.push(request.accept);
    return super.request(request);
  }
}

async function createSecret(name: string, labels: Record<string, string>) {
  const created = await cluster.request('POST', '/api/v1/namespaces/meta/secrets', {
    metadata: { name, labels },
    stringData: { password: 'secret-value' },
  });
  expect(created.status).toBe(201);
  return created.body as KubernetesObject;
}

const metadataKeys = ['apiVersion', 'kind', 'metadata'];

describe('metadata reads through the client', () => {
  it('without a metadata cache, asks the API server for PartialObjectMetadata', async () => {
    await createSecret('plain-a', { reads: 'server' });
    await createSecret('plain-b', { reads: 'server' });
    const transport = new RecordingTransport(cluster.kubeConfig);
    const requests: string[] = [];
    const client = new Client({
      transport,
      onRequest: (verb, resource) => requests.push(`${verb} ${resource}`),
      listPageSize: 1,
    });
    try {
      const one = await client.getMetadata('v1', 'Secret', 'plain-a', 'meta');
      expect(Object.keys(one).sort()).toEqual(metadataKeys);
      expect(one).toMatchObject({
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: 'plain-a', namespace: 'meta', labels: { reads: 'server' } },
      });
      const listed = await client.listMetadata('v1', 'Secret', {
        namespace: 'meta',
        labelSelector: 'reads=server',
      });
      expect(listed.kind).toBe('SecretList');
      expect(listed.items.map((item) => item.metadata.name).sort()).toEqual(['plain-a', 'plain-b']);
      for (const item of listed.items) {
        expect(Object.keys(item).sort()).toEqual(metadataKeys);
        expect(item).toMatchObject({ apiVersion: 'v1', kind: 'Secret' });
      }
      // One page at a time (listPageSize 1), each asked as a PartialObjectMetadataList.
      expect(requests).toEqual(['get secrets', 'list secrets', 'list secrets']);
      const asked = transport.accepts.filter((accept) => accept?.includes('as=PartialObject'));
      expect(asked).toEqual([
        'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json',
        'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json',
        'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json',
      ]);
      await expect(client.getMetadata('v1', 'Secret', 'absent', 'meta')).rejects.toSatisfy(
        isNotFound,
      );
    } finally {
      transport.close();
    }
  });

  it('with the kind cached metadata-only, answers from the cache and sees its own writes', async () => {
    await createSecret('cached-a', { reads: 'cache' });
    const requests: string[] = [];
    const manager = quietManager((verb, resource) => requests.push(`${verb} ${resource}`));
    try {
      const informer = await manager.cache.informerFor('v1', 'Secret', {
        namespace: 'meta',
        metadataOnly: true,
      });
      await informer.waitForSync(30_000);
      const client = manager.client;
      const one = await client.getMetadata('v1', 'Secret', 'cached-a', 'meta');
      expect(Object.keys(one).sort()).toEqual(metadataKeys);
      expect(one.metadata.labels).toEqual({ reads: 'cache' });
      // Its own write, then a read at once: the metadata cache shows it (read-your-writes).
      await client.patch(
        { apiVersion: 'v1', kind: 'Secret', name: 'cached-a', namespace: 'meta' },
        { metadata: { labels: { reads: 'cache', written: 'yes' } } },
        'merge',
      );
      const after = await client.getMetadata('v1', 'Secret', 'cached-a', 'meta');
      expect(after.metadata.labels).toEqual({ reads: 'cache', written: 'yes' });
      const listed = await client.listMetadata('v1', 'Secret', {
        namespace: 'meta',
        labelSelector: 'written=yes',
      });
      expect(listed.items.map((item) => item.metadata.name)).toEqual(['cached-a']);
      expect(Object.keys(listed.items[0] ?? {}).sort()).toEqual(metadataKeys);
      await expect(client.getMetadata('v1', 'Secret', 'absent', 'meta')).rejects.toSatisfy(
        isNotFound,
      );
      // Only the write reached the API server: every read was served by the metadata cache.
      expect(requests).toEqual(['patch secrets']);
    } finally {
      await manager.cache.stop();
    }
  }, 60_000);
});

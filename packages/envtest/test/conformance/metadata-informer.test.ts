import { type KubernetesObject, Manager } from '@ops/core';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../src/eventually.js';
import { startCluster, type TestCluster } from '../cluster.js';

/**
 * Metadata-only watches (issue #31) on both planes: a controller owns Secrets with
 * `onlyMetadata`, so the manager caches their PartialObjectMetadata only (no data), and their
 * changes still reconcile the owner.
 */
let cluster: TestCluster;
beforeAll(async () => {
  cluster = await startCluster();
  await cluster.request('POST', '/api/v1/namespaces', { metadata: { name: 'meta' } });
}, 120_000);
afterAll(async () => {
  await cluster?.stop();
});

describe('metadata-only informers through the manager', () => {
  it('owns Secrets by metadata: the owner is reconciled, the cache holds no Secret data', async () => {
    const owner = await cluster.request('POST', '/api/v1/namespaces/meta/configmaps', {
      metadata: { name: 'owner' },
    });
    const manager = new Manager({
      kubeConfig: cluster.kubeConfig,
      logger: pino({ level: 'silent' }),
      metricsBindAddress: false,
      healthProbeBindAddress: false,
      namespace: 'meta',
    });
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

import type { KubernetesObject } from '@ops/api';
import { parseLabelSelector } from '@ops/api';
import { describe, expect, it } from 'vitest';
import { InformerSyncError } from '../errors/informer-sync-error.js';
import { InformerCache } from './informer-cache.js';
import {
  CountingTransport,
  configMaps,
  eventually,
  localClusterForFile,
  namespaces,
  StaticRestMapper,
} from './local-cluster.test-helper.js';

const local = localClusterForFile();
const { caches } = local;
let namespaceCounter = 0;

async function freshNamespace(): Promise<string> {
  const name = `cache-test-${++namespaceCounter}`;
  await local.cluster.createNamespace(name);
  return name;
}

function newCache(transport = new CountingTransport(local.cluster.transport)): {
  cache: InformerCache;
  transport: CountingTransport;
} {
  const cache = new InformerCache({
    transport,
    restMapper: new StaticRestMapper([configMaps, namespaces]),
    informerDefaults: { backoff: { initialMs: 50, maxMs: 200 } },
  });
  caches.push(cache);
  return { cache, transport };
}

function namesOf(objects: KubernetesObject[]): string[] {
  return objects.map((o) => o.metadata?.name ?? '').sort();
}

describe('InformerCache against the local API server', () => {
  it('shares one informer per apiVersion, kind and namespace, whoever asks', async () => {
    const ns = await freshNamespace();
    const { cache, transport } = newCache();
    const first = cache.getInformer(configMaps, { namespace: ns });
    const [second, third] = await Promise.all([
      cache.informerFor('v1', 'ConfigMap', { namespace: ns }),
      cache.informerFor('v1', 'ConfigMap', { namespace: ns }),
    ]);
    expect(second).toBe(first);
    expect(third).toBe(first);
    expect(cache.getInformer({ ...configMaps }, { namespace: ns })).toBe(first);

    const everywhere = cache.getInformer(configMaps);
    expect(everywhere).not.toBe(first);
    expect(everywhere.namespace).toBe('');
    // A namespace is meaningless for a cluster-scoped kind.
    expect(cache.getInformer(namespaces, { namespace: 'x' })).toBe(cache.getInformer(namespaces));
    expect(cache.informers()).toHaveLength(3);

    // Started on first use: one WatchList each (once synced), not one per caller.
    await cache.waitForSync(5_000);
    expect([transport.lists, transport.watches]).toEqual([0, 3]);
    await expect(cache.informerFor('v1', 'Widget')).rejects.toThrow(/does not serve Widget/);
  });

  it('reports has() only once the kind has synced', async () => {
    const ns = await freshNamespace();
    await local.cluster.createConfigMap(ns, 'a');
    const { cache } = newCache();
    expect(cache.has('v1', 'ConfigMap')).toBe(false);
    const informer = await cache.informerFor('v1', 'ConfigMap', { namespace: ns });
    expect(cache.has('v1', 'ConfigMap')).toBe(informer.hasSynced());
    await informer.waitForSync(5_000);
    expect(cache.has('v1', 'ConfigMap')).toBe(true);
    expect(cache.has('v1', 'Secret')).toBe(false);
    expect(cache.has('apps/v1', 'ConfigMap')).toBe(false);
  });

  it('returns deep copies from get and list', async () => {
    const ns = await freshNamespace();
    await local.cluster.createConfigMap(ns, 'a', { labels: { app: 'x' }, data: { k: 'v' } });
    const { cache } = newCache();
    await cache.getInformer(configMaps, { namespace: ns }).waitForSync(5_000);

    const got = cache.get('v1', 'ConfigMap', ns, 'a');
    expect(got).toMatchObject({ apiVersion: 'v1', kind: 'ConfigMap', data: { k: 'v' } });
    if (got === undefined) throw new Error('unreachable');
    (got.data as Record<string, string>).k = 'changed';
    got.metadata = { ...got.metadata, labels: { app: 'y' } };
    const listed = cache.list('v1', 'ConfigMap', { namespace: ns });
    (listed[0]?.metadata?.labels as Record<string, string>).app = 'z';

    expect(cache.get('v1', 'ConfigMap', ns, 'a')).toMatchObject({
      metadata: { labels: { app: 'x' } },
      data: { k: 'v' },
    });
    expect(cache.get('v1', 'ConfigMap', ns, 'a')).not.toBe(cache.get('v1', 'ConfigMap', ns, 'a'));
    expect(cache.get('v1', 'ConfigMap', ns, 'missing')).toBeUndefined();
  });

  it('filters lists by namespace, label selector and index', async () => {
    const one = await freshNamespace();
    const two = await freshNamespace();
    await local.cluster.createConfigMap(one, 'a', {
      labels: { tier: 'web' },
      data: { team: 'red' },
    });
    await local.cluster.createConfigMap(one, 'b', {
      labels: { tier: 'db' },
      data: { team: 'blue' },
    });
    await local.cluster.createConfigMap(two, 'c', {
      labels: { tier: 'web' },
      data: { team: 'red' },
    });
    const { cache } = newCache();
    const informer = cache.getInformer(configMaps);
    informer.addIndex('team', (o) => {
      const team = (o.data as Record<string, string> | undefined)?.team;
      return team ? [team] : [];
    });
    await cache.waitForSync(5_000);

    const ours = (objects: KubernetesObject[]) =>
      objects.filter((o) => [one, two].includes(o.metadata?.namespace ?? ''));
    expect(namesOf(cache.list('v1', 'ConfigMap', { namespace: one }))).toEqual(['a', 'b']);
    expect(
      namesOf(
        ours(cache.list('v1', 'ConfigMap', { labelSelector: parseLabelSelector('tier=web') })),
      ),
    ).toEqual(['a', 'c']);
    expect(
      namesOf(
        cache.list('v1', 'ConfigMap', {
          namespace: two,
          labelSelector: parseLabelSelector('tier=web'),
        }),
      ),
    ).toEqual(['c']);
    expect(
      namesOf(ours(cache.list('v1', 'ConfigMap', { index: { name: 'team', value: 'red' } }))),
    ).toEqual(['a', 'c']);
    expect(
      namesOf(
        cache.list('v1', 'ConfigMap', { namespace: one, index: { name: 'team', value: 'red' } }),
      ),
    ).toEqual(['a']);
    expect(
      namesOf(cache.list('v1', 'ConfigMap', { index: { name: 'namespace', value: two } })),
    ).toEqual(['c']);
    expect(() => cache.list('v1', 'ConfigMap', { index: { name: 'nope', value: 'x' } })).toThrow(
      /has no index "nope"/,
    );
    // Cluster-scoped kinds are read without a namespace.
    await cache.getInformer(namespaces).waitForSync(5_000);
    expect(cache.get('v1', 'Namespace', undefined, one)?.metadata?.name).toBe(one);
    expect(namesOf(cache.list('v1', 'Namespace'))).toContain(two);
  });

  it('serves reads from namespaced informers, and refuses namespaces none covers', async () => {
    const one = await freshNamespace();
    const two = await freshNamespace();
    const three = await freshNamespace();
    await local.cluster.createConfigMap(one, 'a');
    await local.cluster.createConfigMap(two, 'b');
    await local.cluster.createConfigMap(three, 'c');
    const { cache } = newCache();
    cache.getInformer(configMaps, { namespace: one });
    cache.getInformer(configMaps, { namespace: two });
    await cache.waitForSync(5_000);

    expect(cache.has('v1', 'ConfigMap')).toBe(true);
    expect(cache.get('v1', 'ConfigMap', two, 'b')?.metadata?.name).toBe('b');
    expect(namesOf(cache.list('v1', 'ConfigMap'))).toEqual(['a', 'b']);
    expect(() => cache.get('v1', 'ConfigMap', three, 'c')).toThrow(
      new RegExp(`no informer for ConfigMap \\(v1\\) covering namespace "${three}"`),
    );
    expect(() => cache.list('v1', 'Secret')).toThrow(/no informer for Secret/);
  });

  it('caches only the objects a label selector picks, and refuses a second selector', async () => {
    const ns = await freshNamespace();
    await local.cluster.createConfigMap(ns, 'mine', { labels: { shard: 'a' } });
    await local.cluster.createConfigMap(ns, 'theirs', { labels: { shard: 'b' } });
    await local.cluster.createConfigMap(ns, 'unlabelled');
    const { cache } = newCache();
    const informer = await cache.informerFor('v1', 'ConfigMap', {
      namespace: ns,
      labelSelector: 'shard=a',
    });
    expect(
      await cache.informerFor('v1', 'ConfigMap', { namespace: ns, labelSelector: 'shard=a' }),
    ).toBe(informer);
    await cache.waitForSync(5_000);
    expect(namesOf(cache.list('v1', 'ConfigMap', { namespace: ns }))).toEqual(['mine']);
    expect(cache.get('v1', 'ConfigMap', ns, 'theirs')).toBeUndefined();

    // Relabelled into the selection: it appears; out of it: it goes.
    await local.cluster.transport.request({
      method: 'PATCH',
      path: `/api/v1/namespaces/${ns}/configmaps/theirs`,
      contentType: 'application/merge-patch+json',
      body: { metadata: { labels: { shard: 'a' } } },
    });
    await local.cluster.transport.request({
      method: 'PATCH',
      path: `/api/v1/namespaces/${ns}/configmaps/mine`,
      contentType: 'application/merge-patch+json',
      body: { metadata: { labels: { shard: null } } },
    });
    await eventually(
      () => namesOf(cache.list('v1', 'ConfigMap', { namespace: ns })).join() === 'theirs',
      () => `the cache holds ${namesOf(cache.list('v1', 'ConfigMap', { namespace: ns })).join()}`,
    );

    await expect(cache.informerFor('v1', 'ConfigMap', { namespace: ns })).rejects.toThrow(
      /with label selector "shard=a", not label selector ""/,
    );
    // A shard-selected informer is not an unsharded one either.
    const other = await freshNamespace();
    const shardSelector =
      "shardRange(object.metadata.namespace, '0x0000000000000000', '0x10000000000000000')";
    cache.getInformer(configMaps, { namespace: other, shardSelector });
    expect(cache.getInformer(configMaps, { namespace: other, shardSelector: 'another' })).toBe(
      cache.getInformer(configMaps, { namespace: other, shardSelector }),
    );
    expect(() => cache.getInformer(configMaps, { namespace: other })).toThrow(
      /with label selector "" and a server-side shard selector, not label selector ""/,
    );
    expect(() =>
      cache.getInformer(configMaps, { namespace: ns, labelSelector: 'shard=b' }),
    ).toThrow(/every watch of it must ask for the same selector/);
  });

  it('removes informers, counts objects, and stops everything', async () => {
    const ns = await freshNamespace();
    await local.cluster.createConfigMaps(ns, 'cm', 5);
    const { cache, transport } = newCache();
    const informer = cache.getInformer(configMaps, { namespace: ns });
    await cache.waitForSync(5_000);
    expect(cache.objectCounts()).toEqual([
      { apiVersion: 'v1', kind: 'ConfigMap', namespace: ns, count: 5, synced: true },
    ]);
    await local.cluster.createConfigMap(ns, 'sixth');
    await eventually(() => cache.objectCounts()[0]?.count === 6, 'six objects');

    expect(await cache.removeInformer(configMaps, { namespace: ns })).toBe(true);
    expect(informer.isStopped()).toBe(true);
    expect(cache.has('v1', 'ConfigMap')).toBe(false);
    expect(await cache.removeInformer(configMaps, { namespace: ns })).toBe(false);
    const replacement = cache.getInformer(configMaps, { namespace: ns });
    expect(replacement).not.toBe(informer);
    await replacement.waitForSync(5_000);

    await cache.stop();
    expect(replacement.isStopped()).toBe(true);
    const counts = [transport.lists, transport.watches];
    await local.cluster.createConfigMap(ns, 'after-stop');
    await new Promise((r) => setTimeout(r, 200));
    expect([transport.lists, transport.watches]).toEqual(counts);
    expect(() => cache.getInformer(configMaps)).toThrow(/stopped/);
  });

  it('rejects waitForSync naming the informer that did not sync', async () => {
    const { cache } = newCache();
    cache.getInformer({
      group: 'example.com',
      version: 'v1',
      kind: 'Gadget',
      plural: 'gadgets',
      namespaced: false,
    });
    const error = await cache.waitForSync(300).catch((e: unknown) => e);
    expect(InformerSyncError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(
      /gadgets\.example\.com \(example\.com\/v1 Gadget\) did not sync within 300 ms/,
    );
    expect(cache.objectCounts()).toEqual([
      { apiVersion: 'example.com/v1', kind: 'Gadget', namespace: '', count: 0, synced: false },
    ]);
  });
});

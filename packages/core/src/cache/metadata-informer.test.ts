import type { KubernetesObject } from '@ops/api';
import { describe, expect, it } from 'vitest';
import type { TransportRequest, WatchHandlers } from '../transport/kube-transport.js';
import type { InformerTransport } from './informer.js';
import { InformerCache } from './informer-cache.js';
import {
  configMaps,
  eventually,
  localClusterForFile,
  namespaces,
  StaticRestMapper,
} from './local-cluster.test-helper.js';

/** Passes requests through and records the Accept header of each list and watch. */
class AcceptRecorder implements InformerTransport {
  readonly accepts: string[] = [];
  constructor(private readonly inner: InformerTransport) {}
  request(request: TransportRequest) {
    this.accepts.push(`list ${request.accept ?? 'application/json'}`);
    return this.inner.request(request);
  }
  watch(path: string, query: TransportRequest['query'], handlers: WatchHandlers, accept?: string) {
    this.accepts.push(`watch ${accept ?? 'application/json'}`);
    return this.inner.watch(path, query, handlers, accept);
  }
}

const local = localClusterForFile();
const { caches } = local;
let counter = 0;

/** A metadata-only ConfigMap informer over `seed` ConfigMaps; by paged LIST unless `watchList`. */
async function metadataCache(seed: number, watchList = false) {
  const ns = `metadata-${++counter}`;
  await local.cluster.createNamespace(ns);
  for (let i = 0; i < seed; i++)
    await local.cluster.createConfigMap(ns, `cm-${i}`, {
      labels: { i: String(i) },
      data: { big: 'x'.repeat(100) },
    });
  const transport = new AcceptRecorder(local.cluster.transport);
  const cache = new InformerCache({
    transport,
    restMapper: new StaticRestMapper([configMaps, namespaces]),
    informerDefaults: { backoff: { initialMs: 50, maxMs: 200 }, pageSize: 2, watchList },
  });
  caches.push(cache);
  const informer = await cache.informerFor('v1', 'ConfigMap', {
    namespace: ns,
    metadataOnly: true,
  });
  await informer.waitForSync(10_000);
  return { ns, cache, informer, transport };
}

/** Whether a cached object is metadata only, under the resource's apiVersion and kind. */
function isMetadataOnly(object: KubernetesObject | undefined): boolean {
  return (
    object !== undefined &&
    object.apiVersion === 'v1' &&
    object.kind === 'ConfigMap' &&
    Object.keys(object).sort().join() === 'apiVersion,kind,metadata'
  );
}

describe('metadata-only informers against the local API server', () => {
  it('syncs by WatchList as PartialObjectMetadata by default', async () => {
    const { ns, cache, transport } = await metadataCache(2, true);
    expect(transport.accepts).toContain(
      'watch application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json',
    );
    expect(transport.accepts.some((accept) => accept.startsWith('list '))).toBe(false);
    const listed = cache.listMetadata('v1', 'ConfigMap', { namespace: ns });
    expect(listed.map((o) => o.metadata.name).sort()).toEqual(['cm-0', 'cm-1']);
    expect(listed.every(isMetadataOnly)).toBe(true);
  });

  it('list (paged) and watch as PartialObjectMetadata, served by getMetadata and listMetadata only', async () => {
    const { ns, cache, transport } = await metadataCache(3);
    expect(transport.accepts).toContain(
      'list application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json',
    );
    expect(cache.hasMetadata('v1', 'ConfigMap')).toBe(true);
    // Whole-object reads are not served from metadata.
    expect(cache.has('v1', 'ConfigMap')).toBe(false);
    const listed = cache.listMetadata('v1', 'ConfigMap', { namespace: ns });
    expect(listed.map((o) => o.metadata.name).sort()).toEqual(['cm-0', 'cm-1', 'cm-2']);
    expect(listed.every(isMetadataOnly)).toBe(true);

    await local.cluster.updateConfigMap(ns, 'cm-1', { big: 'y' });
    await local.cluster.createConfigMap(ns, 'cm-new', { labels: { fresh: 'yes' } });
    await local.cluster.deleteConfigMap(ns, 'cm-0');
    await eventually(
      () => cache.getMetadata('v1', 'ConfigMap', ns, 'cm-new') !== undefined,
      'the metadata watch delivers the new ConfigMap',
    );
    expect(transport.accepts).toContain(
      'watch application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json',
    );
    const fresh = cache.getMetadata('v1', 'ConfigMap', ns, 'cm-new');
    expect(isMetadataOnly(fresh)).toBe(true);
    expect(fresh?.metadata.labels).toEqual({ fresh: 'yes' });
    await eventually(
      () => cache.getMetadata('v1', 'ConfigMap', ns, 'cm-0') === undefined,
      'the metadata watch delivers the delete',
    );
    expect(() => cache.get('v1', 'ConfigMap', ns, 'cm-1')).toThrow(/no informer for ConfigMap/);
  });

  it('keeps watching metadata through a restart of the API server', async () => {
    const { ns, cache, informer } = await metadataCache(2);
    const before = informer.stats();
    // The server restarts, its watch history lost: the informer's watch fails, it relists
    // (metadata again) and watches on.
    await local.cluster.restart();
    await local.cluster.createConfigMap(ns, 'after-restart', { labels: { when: 'after' } });
    await local.cluster.deleteConfigMap(ns, 'cm-0');
    await eventually(
      () =>
        cache.getMetadata('v1', 'ConfigMap', ns, 'after-restart') !== undefined &&
        cache.getMetadata('v1', 'ConfigMap', ns, 'cm-0') === undefined,
      () =>
        `the informer shows the changes made after the restart (stats ${JSON.stringify(informer.stats())})`,
      20_000,
    );
    expect(informer.stats().watches).toBeGreaterThan(before.watches);
    // A later change arrives on the resumed watch, still as metadata.
    await local.cluster.updateConfigMap(ns, 'cm-1', { big: 'changed' });
    const listed = await local.cluster.listConfigMaps(ns);
    const version = listed.find((o) => o.metadata?.name === 'cm-1')?.metadata?.resourceVersion;
    await eventually(
      () => cache.getMetadata('v1', 'ConfigMap', ns, 'cm-1')?.metadata.resourceVersion === version,
      'the resumed watch delivers the update',
      20_000,
    );
    expect(cache.listMetadata('v1', 'ConfigMap', { namespace: ns }).every(isMetadataOnly)).toBe(
      true,
    );
  });
});
